package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;

/**
 * The repository template against the local Elasticsearch started by {@code bin/volumizer up}: documents go in
 * with a bare {@code _bulk} of the client itself, so that only the template makes their mapping.
 */
class RepositoryTemplateIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final IndexNames names = new IndexNames("it-" + UUID.randomUUID() + "-");
    private final String index = names.of("documents");
    private Elasticsearch7Engine engine;
    private SearchIndices indices;

    @BeforeEach
    void connect() throws IOException {
        engine = (Elasticsearch7Engine) SearchEngines.open(Elasticsearch7EngineIT.localOptions());
        indices = engine.indices(names);
        indices.installTemplate();
    }

    @AfterEach
    void cleanUp() throws IOException {
        indices.deleteAll();
        engine.send(new Request("DELETE", "/_index_template/" + names.template()));
        engine.close();
    }

    @Test
    void bulkIndexesThroughTheTemplateAndFindsFoldedText() throws IOException {
        bulk(List.of(
                "{\"index\":{\"_id\":\"1\"}}", "{\"id\":\"1\",\"type\":\"Statement\",\"title\":\"Crème BRÛLÉE à la carte\"}",
                "{\"index\":{\"_id\":\"2\"}}", "{\"id\":\"2\",\"type\":\"Statement\",\"title\":\"Plain porridge\"}",
                "{\"index\":{\"_id\":\"3\"}}", "{\"id\":\"3\",\"type\":\"Letter\",\"title\":\"Crème caramel\"}"));

        SearchResult found = search("{\"match\":{\"title\":{\"query\":\"creme brulee\",\"operator\":\"and\"}}}");

        assertThat(found.total().value()).isEqualTo(1);
        assertThat(found.hits().get(0).id()).isEqualTo("1");
    }

    @Test
    void templateMapsIdsAsKeywordsAndTextWithTheFulltextAnalyzer() throws IOException {
        bulk(List.of("{\"index\":{\"_id\":\"1\"}}", "{\"id\":\"1\",\"type\":\"Customer\",\"title\":\"Zoë\"}"));

        JsonNode mapping = read(new Request("GET", "/" + index + "/_mapping")).path(index).path("mappings").path("properties");

        assertThat(mapping.path("id").path("type").asText()).isEqualTo("keyword");
        assertThat(mapping.path("type").path("type").asText()).isEqualTo("keyword");
        assertThat(mapping.path("title").path("analyzer").asText()).isEqualTo("fulltext");
        assertThat(search("{\"term\":{\"type\":\"Customer\"}}").total().value()).isEqualTo(1);
    }

    private void bulk(List<String> lines) throws IOException {
        Request request = new Request("POST", "/" + index + "/_bulk?refresh=true");
        request.setEntity(new NStringEntity(String.join("\n", lines) + "\n", ContentType.create("application/x-ndjson", StandardCharsets.UTF_8)));
        JsonNode answer = read(request);
        assertThat(answer.path("errors").asBoolean()).as("bulk errors: %s", answer).isFalse();
    }

    private SearchResult search(String query) throws IOException {
        return engine.reader().search(List.of(index), SearchQuery.of((ObjectNode) JSON.readTree(query))
                .withCountUpTo(Integer.MAX_VALUE));
    }

    private JsonNode read(Request request) throws IOException {
        return JSON.readTree(EntityUtils.toString(engine.client().performRequest(request).getEntity()));
    }
}
