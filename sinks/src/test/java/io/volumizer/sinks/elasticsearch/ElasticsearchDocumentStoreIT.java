package io.volumizer.sinks.elasticsearch;

import static io.volumizer.sinks.testing.Events.imported;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.http.HttpHost;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.BulkResult;

/** The index stage's writer against the local Elasticsearch: what each item of a bulk request came to. */
class ElasticsearchDocumentStoreIT {

    private final IndexNames indices = new IndexNames("it-" + UUID.randomUUID() + "-");
    private RestClient client;
    private ElasticsearchDocumentStore store;

    @BeforeEach
    void connect() throws IOException {
        client = RestClient.builder(HttpHost.create(
                System.getProperty("volumizer.elasticsearch.url", "http://127.0.0.1:9200"))).build();
        store = new ElasticsearchDocumentStore(client, indices, Backoff.DEFAULT);
        store.ensureTemplate();
    }

    @AfterEach
    void cleanUp() throws IOException {
        client.performRequest(new Request("DELETE", "/" + indices.all()));
        client.performRequest(new Request("DELETE", "/_index_template/" + indices.template()));
        client.close();
    }

    @Test
    void writesAreIdempotentAndMonotonicByVersionAndARefusedDocumentNamesTheReason() throws IOException {
        List<ImportedEvent> v2 = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            v2.add(imported("bank", "d-" + i, "p-" + i % 30, "n-" + i, 2, "Title " + i));
        }
        ImportedEvent badDate = withProperties(imported("bank", "bad", "p-1", "bad.pdf", 1, "Bad"),
                Map.of("openingDate", "not a date"));

        BulkResult<ImportedEvent> first = store.write(v2);
        BulkResult<ImportedEvent> replay = store.write(v2);
        BulkResult<ImportedEvent> mixed = store.write(List.of(imported("bank", "d-1", "p-1", "n-1", 1, "Old"),
                badDate, imported("bank", "d-2", "p-2", "n-2", 3, "New")));

        assertThat(first.written()).hasSize(1500);
        assertThat(replay.written()).hasSize(1500);
        assertThat(mixed.stale()).extracting(e -> e.getDocument().getId()).containsExactly("d-1");
        assertThat(mixed.written()).extracting(e -> e.getDocument().getId()).containsExactly("d-2");
        assertThat(mixed.failed()).singleElement().satisfies(failure -> {
            assertThat(failure.item()).isSameAs(badDate);
            assertThat(failure.reason()).startsWith("Elasticsearch 400 mapper_parsing_exception: ").contains("openingDate");
        });
        client.performRequest(new Request("POST", "/" + indices.of("bank") + "/_refresh"));
        assertThat(get("/" + indices.of("bank") + "/_count").path("count").asLong()).isEqualTo(1500);
        assertThat(get("/" + indices.of("bank") + "/_doc/d-2").path("_source").path("title").asText()).isEqualTo("New");
        assertThat(get("/" + indices.of("bank") + "/_doc/d-1").path("_source").path("title").asText()).isEqualTo("Title 1");
    }

    private static ImportedEvent withProperties(ImportedEvent event, Map<String, Object> properties) {
        return ImportedEvent.newBuilder(event)
                .setDocument(DocumentEvent.newBuilder(event.getDocument()).setProperties(properties).build()).build();
    }

    private JsonNode get(String path) throws IOException {
        return new ObjectMapper().readTree(EntityUtils.toString(client.performRequest(new Request("GET", path)).getEntity()));
    }
}
