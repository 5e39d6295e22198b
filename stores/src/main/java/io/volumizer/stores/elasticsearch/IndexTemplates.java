package io.volumizer.stores.elasticsearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

import io.volumizer.stores.search.IndexNames;

/**
 * The index template every repository index is created from: a fulltext analyzer (standard tokenizer, lowercase,
 * asciifolding, so "Crème BRÛLÉE" is found by "creme brulee"), keywords for ids, types and states, dates, numbers,
 * and no fielddata on text.
 */
public final class IndexTemplates {

    private static final String REPOSITORY_TEMPLATE = "repository-template.json";

    private IndexTemplates() {
    }

    /** Installs (or replaces) the repository template, applying to every repository index of {@code indices}. */
    public static void installRepositoryTemplate(RestClient client, IndexNames indices) throws IOException {
        Request request = new Request("PUT", "/_index_template/" + indices.template());
        request.setEntity(new NStringEntity(repositoryTemplate(indices.all()), ContentType.APPLICATION_JSON));
        client.performRequest(request);
    }

    /** The replicas the template gives a repository's index. */
    static int replicas() {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(repositoryTemplate("*"))
                    .path("template").path("settings").path("number_of_replicas").asInt(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String repositoryTemplate(String pattern) {
        try (InputStream in = IndexTemplates.class.getResourceAsStream(REPOSITORY_TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException(REPOSITORY_TEMPLATE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${pattern}", pattern);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
