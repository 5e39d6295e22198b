package io.volumizer.api.search;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.api.internal.RepositorySearch;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadGrant;
import io.volumizer.generators.BankGenerator;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.SearchResult;

/** GET /api/v1/search and /api/v1/{repository}/search. */
public final class SearchHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** On /api/v1/{repository}/search the repository is in the path. */
    private static final java.util.Set<String> IN_REPOSITORY_PARAMETERS = SearchRequest.PARAMETERS.stream()
            .filter(p -> !p.equals("repository")).collect(java.util.stream.Collectors.toUnmodifiableSet());

    private final RepositorySearch search;
    private final Supplier<List<String>> allRepositories;
    private final Map<String, IndexLayout> layouts;
    private final int maxPageSize;
    private final Cursors cursors;
    private final Duration engineTimeout;

    /**
     * @param allRepositories what a search of all repositories searches (the document reads' too)
     * @param layouts         each repository's index layout, for searches its routing sends to one shard
     * @param engineTimeout   how long each shard searches before it answers with what it found
     */
    public SearchHandler(RepositorySearch search, Supplier<List<String>> allRepositories,
            Map<String, IndexLayout> layouts, int maxPageSize, Cursors cursors, Duration engineTimeout) {
        this.search = search;
        this.allRepositories = allRepositories;
        this.layouts = Map.copyOf(layouts);
        this.maxPageSize = maxPageSize;
        this.cursors = cursors;
        this.engineTimeout = engineTimeout;
    }

    /** Hits and aggregations of the documents the caller may read. */
    public void search(Context ctx, ReadGrant grant) {
        String pathRepository = ctx.pathParamMap().get("repository");
        QueryParameters parameters = new QueryParameters(ctx.queryParamMap(), pathRepository == null
                ? SearchRequest.PARAMETERS : IN_REPOSITORY_PARAMETERS);
        String caller = Caller.of(ctx).name();
        SearchRequest request = SearchRequest.parse(parameters, pathRepository, maxPageSize, cursors, caller);
        List<String> searched = request.repositories().isEmpty() ? allRepositories.get() : request.repositories();
        // Each repository's part asks the shard of the selection's routing value alone, where it routes by one.
        SearchResult found = search.search(RepositorySearch.byRouting(searched, layouts, request::routingValue),
                grant.restrict(request.toQuery().withTimeout(engineTimeout)));
        ctx.json(response(request, found, grant.readsEverything(), cursors.next(caller, request.sort().toString(),
                found.hits(), request.limit())));
    }

    /** @param readsEverything whether the caller reads everything: only then do hits carry locations and scores */
    static ObjectNode response(SearchRequest request, SearchResult found, boolean readsEverything, String next) {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("total").put("value", found.total().value()).put("relation", found.total().exact() ? "eq" : "gte");
        ArrayNode hits = body.putArray("hits");
        for (SearchResult.Hit hit : found.hits()) {
            ObjectNode item = DocumentJson.ofIndexed(hit.source(), readsEverything);
            if (hit.score() != null && readsEverything) {
                item.put("score", hit.score());
            }
            hits.add(item);
        }
        body.put("next", next);
        // The shards asked: one of each repository whose part carried a routing value, all of its others.
        body.putObject("shards").put("total", found.shards().total()).put("successful", found.shards().successful());
        if (!request.aggs().isEmpty()) {
            ObjectNode aggs = body.putObject("aggs");
            for (String name : request.aggs()) {
                ArrayNode buckets = aggs.putArray(name);
                for (SearchResult.Bucket bucket : found.aggregations().getOrDefault(name, List.of())) {
                    String key = name.equals("state") ? BankGenerator.stateCode(bucket.key()) : bucket.key();
                    buckets.addObject().put("key", key).put("count", bucket.count());
                }
            }
        }
        return body;
    }
}
