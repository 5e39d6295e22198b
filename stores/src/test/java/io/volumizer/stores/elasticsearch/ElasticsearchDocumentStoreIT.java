package io.volumizer.stores.elasticsearch;

import static io.volumizer.stores.testing.Events.imported;
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
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.IndexProfile;

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

    @Test
    void aRepositoryShardedByCustomerKeepsACustomersDocumentsOnOneShardAndTheLayoutSurvivesAReindex() throws IOException {
        IndexLayout layout = new IndexLayout(3, 0, "5s", "best_compression", "customerNumber", IndexProfile.METADATA);
        ElasticsearchDocumentStore sharded = new ElasticsearchDocumentStore(client, indices, Map.of("east", layout),
                Backoff.DEFAULT);
        List<ImportedEvent> documents = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            documents.add(withProperties(imported("east", "d-" + i, "p-" + i % 30, "n-" + i, 1, "Title " + i),
                    Map.of("customerNumber", String.format("%010d", i % 30))));
        }
        documents.add(imported("east", "root", "none", "east", 1, "East"));
        assertThat(sharded.write(documents).written()).hasSize(301);

        RepositoryIndices repositories = new RepositoryIndices(client, indices, Map.of("east", layout));
        String generation = repositories.current("east").orElseThrow();
        JsonNode settings = get("/" + generation + "/_settings").path(generation).path("settings").path("index");
        assertThat(settings.path("number_of_shards").asText()).isEqualTo("3");
        assertThat(settings.path("refresh_interval").asText()).isEqualTo("5s");
        assertThat(settings.path("codec").asText()).isEqualTo("best_compression");

        client.performRequest(new Request("POST", "/" + indices.of("east") + "/_refresh"));
        JsonNode targeted = get("/" + indices.of("east") + "/_search?routing=0000000007&size=50"
                + "&q=properties.customerNumber:0000000007");
        assertThat(targeted.path("_shards").path("total").asInt()).isEqualTo(1);
        assertThat(targeted.path("hits").path("total").path("value").asInt()).isEqualTo(10);
        JsonNode fanOut = get("/" + indices.of("east") + "/_search?size=0");
        assertThat(fanOut.path("_shards").path("total").asInt()).isEqualTo(3);
        assertThat(fanOut.path("hits").path("total").path("value").asInt()).isEqualTo(301);

        // A new generation for a reindex has the layout under its bulk-load settings, and gets it back at the end.
        String next = repositories.createForReindex("east");
        assertThat(get("/" + next + "/_settings").path(next).path("settings").path("index").path("refresh_interval").asText())
                .isEqualTo("-1");
        repositories.finishLoad("east", next);
        JsonNode loaded = get("/" + next + "/_settings").path(next).path("settings").path("index");
        assertThat(loaded.path("number_of_shards").asText()).isEqualTo("3");
        assertThat(loaded.path("refresh_interval").asText()).isEqualTo("5s");
        assertThat(loaded.path("codec").asText()).isEqualTo("best_compression");
    }

    private static ImportedEvent withProperties(ImportedEvent event, Map<String, Object> properties) {
        return ImportedEvent.newBuilder(event)
                .setDocument(DocumentEvent.newBuilder(event.getDocument()).setProperties(properties).build()).build();
    }

    private JsonNode get(String path) throws IOException {
        return new ObjectMapper().readTree(EntityUtils.toString(client.performRequest(new Request("GET", path)).getEntity()));
    }
}
