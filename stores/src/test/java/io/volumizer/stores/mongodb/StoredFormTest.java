package io.volumizer.stores.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bson.Document;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.Test;

import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.event.Permission;

class StoredFormTest {

    private static final Instant CREATED = Instant.parse("2024-03-01T10:15:30.123Z");
    private static final Instant MODIFIED = Instant.parse("2024-03-02T00:00:00Z");
    private static final Instant IMPORTED = Instant.parse("2024-03-03T08:00:00.5Z");

    @Test
    void aFileWithEveryKindOfValueIsStoredWithItsTypesAndInFieldOrder() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("closingBalance", 12.5);
        properties.put("operations", 14L);
        properties.put("overdrawn", false);
        properties.put("city", "Zürich");
        properties.put("closedOn", null);
        DocumentEvent document = document(Operation.UPDATE, "st-1", "ac-1", properties)
                .setBlob(BlobRef.newBuilder().setKey("gen/v1/1/statement/1/0/3").setMimeType("application/pdf")
                        .setFilename("2024-02.pdf").setDigest(null).setLength(null).build())
                .setOrigin(Origin.newBuilder().setSource("generator").setSeed(7L).setIndex(1234L).build()).build();

        Document stored = read(imported(document, List.of("root", "ac-1"), "/bank/ac-1/2024-02.pdf"));

        Document expected = new Document("_id", "st-1").append("repository", "bank").append("parentId", "ac-1")
                .append("ancestorIds", List.of("root", "ac-1")).append("path", "/bank/ac-1/2024-02.pdf")
                .append("type", "Statement").append("name", "2024-02.pdf").append("title", "Statement February 2024")
                .append("created", Date.from(CREATED)).append("modified", Date.from(MODIFIED)).append("version", 3L)
                .append("properties", new Document(properties)).append("importedAt", Date.from(IMPORTED))
                .append("blob", new Document("key", "gen/v1/1/statement/1/0/3").append("mimeType", "application/pdf")
                        .append("filename", "2024-02.pdf").append("digest", null).append("length", null))
                .append("origin", new Document("source", "generator").append("seed", 7L).append("index", 1234L));
        assertThat(stored).isEqualTo(expected);
        assertThat(List.copyOf(stored.keySet())).containsExactlyElementsOf(expected.keySet());
        assertThat(List.copyOf(stored.get("properties", Document.class).keySet())).containsExactlyElementsOf(properties.keySet());
        assertThat(stored.get("created")).isInstanceOf(Date.class);
    }

    @Test
    void aRootHasANullParentAndADeleteIsATombstone() {
        Document root = read(imported(document(Operation.CREATE, "root", null, Map.of()).build(), List.of(), "/bank"));
        Document deleted = read(imported(document(Operation.DELETE, "st-1", "ac-1", Map.of()).build(), List.of("root", "ac-1"), "/x"));

        assertThat(root.containsKey("parentId")).isTrue();
        assertThat(root.get("parentId")).isNull();
        assertThat(root.getList("ancestorIds", String.class)).isEmpty();
        assertThat(root).doesNotContainKeys("blob", "origin", "deleted");
        assertThat(MongoDocumentStore.isTombstone(deleted)).isTrue();
        assertThat(MongoDocumentStore.isTombstone(root)).isFalse();
    }

    @Test
    void storedAndReadBackItIsTheSameEvent() {
        DocumentEvent document = document(Operation.UPDATE, "st-1", "ac-1", Map.of("city", "Zürich", "operations", 14L))
                .setOrigin(Origin.newBuilder().setSource("api").setSeed(null).setIndex(null).build()).build();

        assertThat(MongoDocumentStore.toEvent(read(imported(document, List.of("root", "ac-1"), "/x")), Operation.UPDATE))
                .isEqualTo(DocumentEvent.newBuilder(document).setEventTime(MODIFIED).build());
    }

    @Test
    void theOwnAclAndTheEffectiveOneAreStoredAfterTheOriginAndReadBack() {
        Acl own = new Acl(List.of(AclInheritance.grant("auditors", Permission.READ),
                AclInheritance.deny("customer-1", Permission.WRITE)), true);
        EffectiveAcl effective = new EffectiveAcl(List.of("auditors", "administrators"), List.of("administrators"), List.of());
        DocumentEvent document = document(Operation.CREATE, "st-1", "ac-1", Map.of())
                .setOrigin(Origin.newBuilder().setSource("api").setSeed(null).setIndex(null).build()).setAcl(own).build();
        ImportedEvent event = ImportedEvent.newBuilder(imported(document, List.of("root", "ac-1"), "/x"))
                .setEffectiveAcl(effective).build();

        Document stored = read(event);

        assertThat(stored.get("acl")).isEqualTo(new Document("aces", List.of(
                new Document("principal", "auditors").append("permission", "READ").append("granted", true),
                new Document("principal", "customer-1").append("permission", "WRITE").append("granted", false)))
                .append("blockInheritance", true));
        assertThat(stored.getList("readAcl", String.class)).containsExactly("auditors", "administrators");
        assertThat(stored.getList("writeAcl", String.class)).containsExactly("administrators");
        assertThat(stored.getList("manageAcl", String.class)).isEmpty();
        assertThat(List.copyOf(stored.keySet())).endsWith("origin", "acl", "readAcl", "writeAcl", "manageAcl");
        assertThat(MongoDocumentStore.toEvent(stored, Operation.UPDATE).getAcl()).isEqualTo(own);
        assertThat(MongoDocumentStore.toImported(stored, null).getEffectiveAcl()).isEqualTo(effective);
    }

    @Test
    void aDocumentStoredBeforeAclsHasNeitherAcl() {
        Document stored = read(imported(document(Operation.CREATE, "st-1", "ac-1", Map.of()).build(), List.of("root"), "/x"));

        assertThat(stored).doesNotContainKeys("acl", "readAcl", "writeAcl", "manageAcl");
        assertThat(MongoDocumentStore.toEvent(stored, Operation.UPDATE).getAcl()).isNull();
        assertThat(MongoDocumentStore.toImported(stored, null).getEffectiveAcl()).isNull();
    }

    @Test
    void aValueOfAnotherTypeIsRefusedWithItsName() {
        Map<String, Object> properties = Map.of("count", 3);
        ImportedEvent event = imported(document(Operation.CREATE, "d", "p", properties).build(), List.of("p"), "/p/d");

        assertThatThrownBy(() -> StoredForm.of(event)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("count").hasMessageContaining("java.lang.Integer");
    }

    private static Document read(ImportedEvent event) {
        return StoredForm.of(event).decode(new DocumentCodec());
    }

    private static DocumentEvent.Builder document(Operation operation, String id, String parentId,
            Map<String, Object> properties) {
        return DocumentEvent.newBuilder().setOperation(operation).setRepository("bank").setId(id).setParentId(parentId)
                .setType("Statement").setName("2024-02.pdf").setTitle("Statement February 2024").setCreated(CREATED)
                .setModified(MODIFIED).setProperties(properties).setEventTime(MODIFIED).setVersion(3L);
    }

    private static ImportedEvent imported(DocumentEvent document, List<String> ancestorIds, String path) {
        return ImportedEvent.newBuilder().setDocument(document).setAncestorIds(ancestorIds).setPath(path)
                .setImportedAt(IMPORTED).build();
    }
}
