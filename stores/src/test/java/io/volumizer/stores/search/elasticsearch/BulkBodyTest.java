package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.testing.Events;

/** The NDJSON of a {@code _bulk} request, as Elasticsearch parses it: one action line, then the source line. */
class BulkBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Elasticsearch7Writer store = writer(Map.of());

    /** A writer that is never sent anything: its requests' bodies are all that is looked at. */
    static Elasticsearch7Writer writer(Map<String, IndexLayout> layouts) {
        return new Elasticsearch7Writer(new Elasticsearch7Indices(null, new IndexNames("volumizer-"), layouts),
                Backoff.DEFAULT, null);
    }

    @Test
    void indexActionThenTheDocumentWithTypedPropertiesAndFulltext() throws Exception {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("city", "Zürich \"Altstadt\"");
        properties.put("statementNumber", 7L);
        properties.put("closingBalance", 12.5);
        properties.put("overdrawn", false);
        ImportedEvent event = Events.imported("bank", "s-1", "a-1", "2024-01.pdf", 3, "Statement\nJanuary");
        event.getDocument().setProperties(properties);
        event.getDocument().setBlob(BlobRef.newBuilder().setKey("gen/v1/k").setMimeType("application/pdf")
                .setFilename("2024-01.pdf").build());

        List<JsonNode> lines = lines(store.bulkBody(List.of(event)));

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo(JSON.readTree(
                "{\"index\":{\"_index\":\"volumizer-bank\",\"_id\":\"s-1\",\"version\":6,\"version_type\":\"external_gte\"}}"));
        JsonNode document = lines.get(1);
        assertThat(document.path("id").asText()).isEqualTo("s-1");
        assertThat(document.path("parentId").asText()).isEqualTo("a-1");
        assertThat(document.path("path").asText()).isEqualTo("/bank/a-1/2024-01.pdf");
        assertThat(document.path("created").asText()).isEqualTo("2024-01-01T00:00:00Z");
        assertThat(document.path("version").isIntegralNumber()).isTrue();
        assertThat(document.path("ancestorIds")).containsExactly(JSON.readTree("\"root\""), JSON.readTree("\"a-1\""));
        assertThat(document.path("properties")).isEqualTo(JSON.readTree(
                "{\"city\":\"Zürich \\\"Altstadt\\\"\",\"statementNumber\":7,\"closingBalance\":12.5,\"overdrawn\":false}"));
        assertThat(document.path("fulltext").asText()).isEqualTo("Statement\nJanuary Zürich \"Altstadt\"");
        assertThat(document.path("blob")).isEqualTo(JSON.readTree(
                "{\"mimeType\":\"application/pdf\",\"filename\":\"2024-01.pdf\",\"key\":\"gen/v1/k\"}"));
    }

    @Test
    void aRootHasANullParentAndADeleteHasNoSourceLine() throws Exception {
        ImportedEvent root = Events.imported("bank", "root", "none", "bank", 1, "Bank");
        root.getDocument().setParentId(null);
        root.setAncestorIds(List.of());
        ImportedEvent deleted = Events.imported("bank", "s-2", "a-1", "gone.pdf", 9, "Gone");
        deleted.getDocument().setOperation(Operation.DELETE);

        List<JsonNode> lines = lines(store.bulkBody(List.of(root, deleted)));

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1).get("parentId").isNull()).isTrue();
        assertThat(lines.get(2)).isEqualTo(JSON.readTree(
                "{\"delete\":{\"_index\":\"volumizer-bank\",\"_id\":\"s-2\",\"version\":18,\"version_type\":\"external_gte\"}}"));
    }

    @Test
    void aLiveRepositoryIndexesTheFilesTextAndAnArchiveNeitherItNorTheFulltext() throws Exception {
        Elasticsearch7Writer profiled = writer(Map.of(
                "live", new IndexLayout(null, null, null, null, null, IndexProfile.LIVE),
                "archive", new IndexLayout(null, null, null, null, null, IndexProfile.ARCHIVE)));
        List<ImportedEvent> events = new java.util.ArrayList<>();
        for (String repository : List.of("live", "archive", "bank")) {
            ImportedEvent event = Events.imported(repository, "s-" + repository, "a-1", "2024-01.pdf", 1, "Statement");
            event.setFileText("Opening balance 12.50 Blue Bottle Coffee");
            event.getDocument().setBlob(BlobRef.newBuilder().setKey("gen/v1/k").setMimeType("application/pdf")
                    .setFilename("2024-01.pdf").build());
            events.add(event);
        }

        List<JsonNode> lines = lines(profiled.bulkBody(events));

        assertThat(lines.get(1).path("fileText").asText()).isEqualTo("Opening balance 12.50 Blue Bottle Coffee");
        assertThat(lines.get(1).path("fileTextIndexed").asBoolean()).isTrue();
        assertThat(lines.get(0).path("index").path("version").asLong()).as("its text's form: above its metadata's")
                .isEqualTo(3);
        assertThat(lines.get(1).has("fulltext")).isTrue();
        assertThat(lines.get(3).has("fileText")).isFalse();
        assertThat(lines.get(3).has("fulltext")).isFalse();
        assertThat(lines.get(3).path("title").asText()).isEqualTo("Statement");
        assertThat(lines.get(5).has("fileText")).as("a repository of the metadata profile").isFalse();
        assertThat(lines.get(5).has("fileTextIndexed")).isFalse();
        assertThat(lines.get(4).path("index").path("version").asLong()).isEqualTo(2);
        assertThat(lines.get(5).has("fulltext")).isTrue();
    }

    /** Every line of the body, which must end with a newline (Elasticsearch rejects a body that does not). */
    @Test
    void aRepositoryShardedByAPropertyRoutesEachDocumentByItsValueAndTheOthersById() throws Exception {
        IndexLayout byCustomer = new IndexLayout(3, null, null, null, "customerNumber", IndexProfile.METADATA);
        Elasticsearch7Writer sharded = writer(Map.of("east", byCustomer));
        ImportedEvent statement = Events.imported("east", "s-1", "a-1", "2024-01.pdf", 3, "Statement");
        statement.getDocument().setProperties(new LinkedHashMap<>(Map.of("customerNumber", "0000000042")));
        ImportedEvent root = Events.imported("east", "root", "none", "east", 1, "East");
        ImportedEvent elsewhere = Events.imported("bank", "s-2", "a-2", "2024-02.pdf", 1, "Statement");
        elsewhere.getDocument().setProperties(new LinkedHashMap<>(Map.of("customerNumber", "0000000042")));
        ImportedEvent deleted = Events.imported("east", "s-3", "a-1", "2024-03.pdf", 4, "Statement");
        deleted.getDocument().setProperties(new LinkedHashMap<>(Map.of("customerNumber", "0000000042")));
        deleted.getDocument().setOperation(Operation.DELETE);

        List<JsonNode> lines = lines(sharded.bulkBody(List.of(statement, root, elsewhere, deleted)));

        assertThat(lines.get(0).path("index").path("routing").asText()).isEqualTo("0000000042");
        assertThat(lines.get(2).path("index").has("routing")).as("a document without the property").isFalse();
        assertThat(lines.get(4).path("index").has("routing")).as("a repository not sharded by it").isFalse();
        assertThat(lines.get(6).path("delete").path("routing").asText()).as("a delete finds the shard too")
                .isEqualTo("0000000042");
    }

    private static List<JsonNode> lines(byte[] body) throws Exception {
        String text = new String(body, StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n");
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : text.split("\n")) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }
}
