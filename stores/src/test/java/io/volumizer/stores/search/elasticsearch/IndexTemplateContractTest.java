package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Origin;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.testing.Events;

/**
 * The index template and the indexed form agree: every field the index stage writes is mapped by the template
 * (the document's own properties excepted: they are mapped by the template's dynamic rules), and every field the
 * template maps is written. A field added to one side only fails here, not in a search in production.
 */
class IndexTemplateContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyIndexedFieldIsMappedAndEveryMappedFieldIsIndexed() throws Exception {
        assertThat(mappedFields()).isEqualTo(writtenFields());
    }

    @Test
    void propertiesAreAnObjectWhoseFieldsTheDynamicTemplatesMap() throws Exception {
        JsonNode mappings = template().path("template").path("mappings");
        assertThat(mappings.path("properties").path(DocumentFields.PROPERTIES).path("type").asText()).isEqualTo("object");
        assertThat(mappings.path("dynamic_templates")).isNotEmpty();
    }

    /**
     * Field paths of the indexed form of documents with every kind of value: a root, a file with a blob, its
     * text (a live repository's), its effective ACL and the bulk command whose change it is.
     */
    private static Set<String> writtenFields() throws Exception {
        ImportedEvent root = Events.imported("bank", "root", "none", "bank", 1, "Bank");
        root.getDocument().setParentId(null);
        root.setAncestorIds(List.of());
        ImportedEvent file = Events.imported("bank", "s-1", "a-1", "2024-01.pdf", 3, "Statement");
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("text", "x");
        properties.put("number", 7L);
        properties.put("amount", 1.5);
        properties.put("flag", true);
        properties.put("nothing", null);
        file.getDocument().setProperties(properties);
        file.getDocument().setBlob(BlobRef.newBuilder().setKey("gen/v1/k").setMimeType("application/pdf")
                .setFilename("2024-01.pdf").setDigest("ab").setLength(3L).build());
        file.setFileText("Opening balance");
        file.getDocument().setOrigin(Origin.newBuilder().setSource("bulk").setCommand("bulk-bank-1").build());
        file.setEffectiveAcl(new EffectiveAcl(List.of("auditors"), List.of(), List.of()));
        IndexLayout live = new IndexLayout(null, null, null, null, null, IndexProfile.LIVE);
        byte[] body = BulkBodyTest.writer(Map.of("bank", live)).bulkBody(List.of(root, file));
        Set<String> fields = new TreeSet<>();
        String[] lines = new String(body, StandardCharsets.UTF_8).split("\n");
        for (int i = 1; i < lines.length; i += 2) {
            collectWritten(JSON.readTree(lines[i]), "", fields);
        }
        return fields;
    }

    private static void collectWritten(JsonNode document, String prefix, Set<String> fields) {
        for (Iterator<Map.Entry<String, JsonNode>> it = document.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String path = prefix + field.getKey();
            if (path.equals(DocumentFields.PROPERTIES)) {
                fields.add(path); // its fields are the document's own, mapped dynamically
            } else if (field.getValue().isObject()) {
                collectWritten(field.getValue(), path + ".", fields);
            } else {
                fields.add(path);
            }
        }
    }

    /** Field paths the template maps explicitly (multi-fields such as {@code title.raw} are views, not fields). */
    private static Set<String> mappedFields() throws Exception {
        Set<String> fields = new TreeSet<>();
        collectMapped(template().path("template").path("mappings").path("properties"), "", fields);
        return fields;
    }

    private static void collectMapped(JsonNode properties, String prefix, Set<String> fields) {
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode nested = field.getValue().path("properties");
            if (nested.isObject() && !nested.isEmpty()) {
                collectMapped(nested, prefix + field.getKey() + ".", fields);
            } else {
                fields.add(prefix + field.getKey());
            }
        }
    }

    private static JsonNode template() throws Exception {
        return JSON.readTree(Elasticsearch7Indices.repositoryTemplate("contract-*"));
    }
}
