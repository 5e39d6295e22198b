package io.volumizer.stores.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import org.apache.http.HttpHost;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.stores.search.IndexNames;

/** Against the local Elasticsearch started by {@code bin/volumizer up}. */
class ElasticsearchIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final IndexNames indices = new IndexNames("it-" + UUID.randomUUID() + "-");
    private final String index = indices.of("documents");
    private RestClient client;

    @BeforeEach
    void connect() throws IOException {
        client = RestClient.builder(HttpHost.create(
                System.getProperty("volumizer.elasticsearch.url", "http://127.0.0.1:9200"))).build();
        IndexTemplates.installRepositoryTemplate(client, indices);
    }

    @AfterEach
    void cleanUp() throws IOException {
        client.performRequest(new Request("DELETE", "/" + index + "?ignore_unavailable=true"));
        client.performRequest(new Request("DELETE", "/_index_template/" + indices.template()));
        client.close();
    }

    @Test
    void bulkIndexesThroughTheTemplateAndFindsFoldedText() throws IOException {
        bulk(List.of(
                "{\"index\":{\"_id\":\"1\"}}", "{\"id\":\"1\",\"type\":\"Statement\",\"title\":\"Crème BRÛLÉE à la carte\"}",
                "{\"index\":{\"_id\":\"2\"}}", "{\"id\":\"2\",\"type\":\"Statement\",\"title\":\"Plain porridge\"}",
                "{\"index\":{\"_id\":\"3\"}}", "{\"id\":\"3\",\"type\":\"Letter\",\"title\":\"Crème caramel\"}"));

        JsonNode hits = search("{\"query\":{\"match\":{\"title\":{\"query\":\"creme brulee\",\"operator\":\"and\"}}}}");

        assertThat(hits.path("total").path("value").asInt()).isEqualTo(1);
        assertThat(hits.path("hits").get(0).path("_id").asText()).isEqualTo("1");
    }

    @Test
    void templateMapsIdsAsKeywordsAndTextWithTheFulltextAnalyzer() throws IOException {
        bulk(List.of("{\"index\":{\"_id\":\"1\"}}", "{\"id\":\"1\",\"type\":\"Customer\",\"title\":\"Zoë\"}"));

        JsonNode mapping = get("/" + index + "/_mapping").path(index).path("mappings").path("properties");

        assertThat(mapping.path("id").path("type").asText()).isEqualTo("keyword");
        assertThat(mapping.path("type").path("type").asText()).isEqualTo("keyword");
        assertThat(mapping.path("title").path("analyzer").asText()).isEqualTo("fulltext");
        assertThat(search("{\"query\":{\"term\":{\"type\":\"Customer\"}}}").path("total").path("value").asInt())
                .isEqualTo(1);
    }

    private void bulk(List<String> lines) throws IOException {
        Request request = new Request("POST", "/" + index + "/_bulk?refresh=true");
        request.setEntity(new NStringEntity(String.join("\n", lines) + "\n", ContentType.create("application/x-ndjson", StandardCharsets.UTF_8)));
        JsonNode answer = JSON.readTree(EntityUtils.toString(client.performRequest(request).getEntity()));
        assertThat(answer.path("errors").asBoolean()).as("bulk errors: %s", answer).isFalse();
    }

    private JsonNode search(String body) throws IOException {
        Request request = new Request("POST", "/" + index + "/_search");
        request.setEntity(new NStringEntity(body, ContentType.APPLICATION_JSON));
        Response response = client.performRequest(request);
        return JSON.readTree(EntityUtils.toString(response.getEntity())).path("hits");
    }

    private JsonNode get(String path) throws IOException {
        return JSON.readTree(EntityUtils.toString(client.performRequest(new Request("GET", path)).getEntity()));
    }
}
