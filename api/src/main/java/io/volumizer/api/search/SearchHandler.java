package io.volumizer.api.search;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.Elasticsearch;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.generators.BankGenerator;
import io.volumizer.stores.search.IndexLayout;

/** GET /api/v1/search and /api/v1/{repository}/search. */
public final class SearchHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** On /api/v1/{repository}/search the repository is in the path. */
    private static final java.util.Set<String> IN_REPOSITORY_PARAMETERS = SearchRequest.PARAMETERS.stream()
            .filter(p -> !p.equals("repository")).collect(java.util.stream.Collectors.toUnmodifiableSet());

    private final Elasticsearch elasticsearch;
    private final Supplier<List<String>> allRepositories;
    private final Map<String, IndexLayout> layouts;
    private final int maxPageSize;

    /**
     * @param allRepositories what a search of all repositories searches (the document reads' too)
     * @param layouts         each repository's index layout, for searches its routing sends to one shard
     */
    public SearchHandler(Elasticsearch elasticsearch, Supplier<List<String>> allRepositories,
            Map<String, IndexLayout> layouts, int maxPageSize) {
        this.elasticsearch = elasticsearch;
        this.allRepositories = allRepositories;
        this.layouts = Map.copyOf(layouts);
        this.maxPageSize = maxPageSize;
    }

    public void search(Context ctx) {
        String pathRepository = ctx.pathParamMap().get("repository");
        QueryParameters parameters = new QueryParameters(ctx.queryParamMap(), pathRepository == null
                ? SearchRequest.PARAMETERS : IN_REPOSITORY_PARAMETERS);
        SearchRequest request = SearchRequest.parse(parameters, pathRepository, maxPageSize);
        List<String> searched = request.repositories().isEmpty() ? allRepositories.get() : request.repositories();
        JsonNode answer = elasticsearch.search(searched, request.toQuery(), request.routing(searched, layouts));
        ctx.json(response(request, answer));
    }

    static ObjectNode response(SearchRequest request, JsonNode answer) {
        ObjectNode body = JSON.createObjectNode();
        JsonNode total = answer.path("hits").path("total");
        body.putObject("total").put("value", total.path("value").asLong()).put("relation", total.path("relation").asText("eq"));
        ArrayNode hits = body.putArray("hits");
        JsonNode found = answer.path("hits").path("hits");
        for (JsonNode hit : found) {
            ObjectNode item = ((ObjectNode) hit.path("_source").deepCopy());
            if (hit.path("_score").isNumber()) {
                item.put("score", hit.path("_score").asDouble());
            }
            hits.add(item);
        }
        body.put("next", Cursors.next(request.sort().toString(), found, request.limit()));
        // The shards asked: one where the search carried its repository's routing value, all of them otherwise.
        JsonNode shards = answer.path("_shards");
        body.putObject("shards").put("total", shards.path("total").asInt()).put("successful", shards.path("successful").asInt());
        if (!request.aggs().isEmpty()) {
            ObjectNode aggs = body.putObject("aggs");
            for (String name : request.aggs()) {
                ArrayNode buckets = aggs.putArray(name);
                for (JsonNode bucket : answer.path("aggregations").path(name).path("buckets")) {
                    String key = bucket.has("key_as_string") ? bucket.path("key_as_string").asText() : bucket.path("key").asText();
                    if (name.equals("state")) {
                        key = BankGenerator.stateCode(key);
                    }
                    buckets.addObject().put("key", key).put("count", bucket.path("doc_count").asLong());
                }
            }
        }
        return body;
    }
}
