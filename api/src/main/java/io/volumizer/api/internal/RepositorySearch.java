package io.volumizer.api.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;

/**
 * Searches of the API in repositories, by their aliases: the search engine's failures as the API answers them
 * (404, 400, or 503 naming the engine).
 */
public final class RepositorySearch {

    /** How long the list of repositories' aliases is reused for searches over all of them. */
    private static final long ALIASES_TTL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    private final SearchEngine engine;
    private final IndexNames names;
    private final SearchIndices indices;
    private volatile List<String> allRepositories;
    private volatile long allRepositoriesRead;

    public RepositorySearch(SearchEngine engine, IndexNames names) {
        this.engine = engine;
        this.names = names;
        this.indices = engine.indices(names);
    }

    /**
     * The aliases of repositories, or of all of them when there are none: the aliases, not a pattern of indices,
     * which would also match generations kept after a reindex and find documents twice.
     */
    private List<String> targets(List<String> repositories) {
        List<String> searched = repositories.isEmpty() ? repositories() : repositories;
        return searched.isEmpty() ? List.of(names.all()) : searched.stream().map(names::of).toList();
    }

    /** Every repository that has an index (an alias), as read at most {@link #ALIASES_TTL_NANOS} ago. */
    public List<String> repositories() {
        if (allRepositories == null || System.nanoTime() - allRepositoriesRead > ALIASES_TTL_NANOS) {
            try {
                allRepositories = indices.repositories();
            } catch (SearchException e) {
                throw new BackendUnavailableException(engine.name(), e);
            }
            allRepositoriesRead = System.nanoTime();
        }
        return allRepositories;
    }

    /** A search in repositories (none: all of them). */
    public SearchResult search(List<String> repositories, SearchQuery query) {
        try {
            return engine.reader().search(targets(repositories), query);
        } catch (SearchException e) {
            switch (e.kind()) {
                case NOT_FOUND -> throw ApiException.notFound("no repository '" + String.join(",", repositories)
                        + "' in " + engine.name());
                case INVALID -> throw new ApiException(400, "invalid", null, engine.name() + " rejected the query: "
                        + e.reason());
                default -> throw new BackendUnavailableException(engine.name(), e);
            }
        }
    }

    /**
     * The repositories by the routing value their part of a search carries: the value {@code valueOf} gives for the
     * property a repository's layout routes documents by, so that only that shard of it is asked; null (every
     * shard) where it routes by none or there is no value. No repositories (all of them) are one part, unrouted.
     */
    public static Map<String, List<String>> byRouting(List<String> repositories, Map<String, IndexLayout> layouts,
            Function<String, String> valueOf) {
        Map<String, List<String>> byRouting = new LinkedHashMap<>();
        if (repositories.isEmpty()) {
            byRouting.put(null, List.of());
        }
        for (String repository : repositories) {
            String property = layouts.getOrDefault(repository, IndexLayout.TEMPLATE).routing();
            byRouting.computeIfAbsent(property == null ? null : valueOf.apply(property), key -> new ArrayList<>())
                    .add(repository);
        }
        return byRouting;
    }

    /**
     * One search in repositories routed differently ({@link #byRouting}): each part asked with its routing value
     * (repositories routed alike together, merged by the engine), their results merged here.
     */
    public SearchResult search(Map<String, List<String>> byRouting, SearchQuery query) {
        SearchQuery part = byRouting.size() > 1 ? SearchResult.widened(query) : query;
        List<SearchResult> parts = new ArrayList<>();
        byRouting.forEach((routing, repositories) -> parts.add(search(repositories, part.withRouting(routing))));
        return SearchResult.merge(query, parts);
    }

    /** Cluster health is at least yellow (one node: replicas are never assigned). */
    public void ping() {
        try {
            engine.checkHealth(Duration.ofSeconds(1));
        } catch (SearchException e) {
            throw new BackendUnavailableException(engine.name(), e);
        }
    }
}
