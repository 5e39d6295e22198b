package io.volumizer.api.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.elasticsearch.RepositoryIndices;

/** Searches of the API: bodies are built as JSON trees (user text is a JSON value, never spliced into a string). */
public final class Elasticsearch {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How long the list of repositories' aliases is reused for searches over all of them. */
    private static final long ALIASES_TTL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    private final RestClient client;
    private final IndexNames indices;
    private final RepositoryIndices repositoryIndices;
    private volatile List<String> allRepositories;
    private volatile long allRepositoriesRead;

    public Elasticsearch(RestClient client, IndexNames indices) {
        this.client = client;
        this.indices = indices;
        this.repositoryIndices = new RepositoryIndices(client, indices);
    }

    /**
     * The index of repositories (their aliases), or of all of them when there are none: the aliases, not a pattern
     * of indices, which would also match generations kept after a reindex and find documents twice.
     */
    private String index(List<String> repositories) throws IOException {
        if (!repositories.isEmpty()) {
            return String.join(",", repositories.stream().map(indices::of).toList());
        }
        List<String> all = repositories();
        return all.isEmpty() ? indices.all() : String.join(",", all.stream().map(indices::of).toList());
    }

    /** Every repository that has an index (an alias), as read at most {@link #ALIASES_TTL_NANOS} ago. */
    public List<String> repositories() {
        if (allRepositories == null || System.nanoTime() - allRepositoriesRead > ALIASES_TTL_NANOS) {
            try {
                allRepositories = repositoryIndices.repositoryAliases().stream()
                        .map(indices::repositoryOf).toList();
            } catch (IOException e) {
                throw new BackendUnavailableException("elasticsearch", e);
            }
            allRepositoriesRead = System.nanoTime();
        }
        return allRepositories;
    }

    /**
     * A search in repositories (none: all of them).
     *
     * @param routing the shard routing value every document searched for was indexed with, to ask only its shard;
     *                null to ask every shard
     */
    public JsonNode search(List<String> repositories, ObjectNode body, String routing) {
        String repository = String.join(",", repositories);
        try {
            Request request = new Request("POST", "/" + index(repositories) + "/_search");
            request.addParameter("allow_partial_search_results", "false");
            if (routing != null) {
                request.addParameter("routing", routing);
            }
            request.setEntity(new NStringEntity(body.toString(), ContentType.APPLICATION_JSON));
            Response response = client.performRequest(request);
            try (InputStream in = response.getEntity().getContent()) {
                return JSON.readTree(in);
            }
        } catch (ResponseException e) {
            int status = e.getResponse().getStatusLine().getStatusCode();
            if (status == 404) {
                throw ApiException.notFound("no repository '" + repository + "' in Elasticsearch");
            }
            if (status == 400) {
                throw new ApiException(400, "invalid", null, "Elasticsearch rejected the query: " + reason(e));
            }
            throw new BackendUnavailableException("elasticsearch", e);
        } catch (IOException e) {
            throw new BackendUnavailableException("elasticsearch", e);
        }
    }

    /** Cluster health is at least yellow (one node: replicas are never assigned). */
    public void ping() {
        Request request = new Request("GET", "/_cluster/health");
        request.addParameter("wait_for_status", "yellow");
        request.addParameter("timeout", "1s");
        try {
            client.performRequest(request);
        } catch (IOException e) {
            throw new BackendUnavailableException("elasticsearch", e);
        }
    }

    private static String reason(ResponseException e) {
        try (InputStream in = e.getResponse().getEntity().getContent()) {
            JsonNode error = JSON.readTree(in).path("error");
            JsonNode root = error.path("root_cause").path(0);
            return (root.isMissingNode() ? error : root).path("reason").asText();
        } catch (IOException | RuntimeException unreadable) {
            return e.getMessage();
        }
    }
}
