package io.volumizer.api.search;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.CREATED;
import static io.volumizer.stores.DocumentFields.FILE_TEXT_INDEXED;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PATH;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ArrayNode;

import io.volumizer.api.documents.Documents;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.generators.BankGenerator;
import io.volumizer.domain.selection.Selection;
import io.volumizer.stores.search.Aggregation;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SortField;
import io.volumizer.stores.InvalidFieldException;

/**
 * A search, read strictly from the query string and turned into a search engine's query: the documents of a
 * {@link Selection} (text, type, state, customer and creation date, the filters bulk commands select with too), in
 * the repositories named (none: all); sort by relevance, name or date; keyset pages with search_after; terms and
 * monthly aggregations.
 */
public record SearchRequest(List<String> repositories, Selection selection, Sort sort, int limit, ArrayNode after,
        Set<String> aggs) {

    public static final Set<String> PARAMETERS = parameters();
    /** The shortest prefix of a prefix term: shorter ones match a large part of every index's terms. */
    static final int MIN_PREFIX = 3;
    /** The most prefix terms one search has. */
    static final int MAX_PREFIXES = 10;
    private static final List<String> AGGREGATIONS = List.of("type", "state", "month", "repository");

    /** Orders of results; each ends on the id, so pages never skip or repeat ties. */
    public enum Sort {
        relevance(SortField.relevance()), name(SortField.asc(NAME)), nameDesc(SortField.desc(NAME)),
        date(SortField.asc(CREATED)), dateDesc(SortField.desc(CREATED));

        final SortField field;

        Sort(SortField field) {
            this.field = field;
        }

        @Override
        public String toString() {
            return switch (this) {
                case nameDesc -> "-name";
                case dateDesc -> "-date";
                default -> name();
            };
        }
    }

    /**
     * @param pathRepository the repository of /api/v1/{repository}/search, or null for /api/v1/search, where
     *                       {@code repository} names some (comma-separated) or, absent, all of them
     */
    public static SearchRequest parse(QueryParameters parameters, String pathRepository, int maxPageSize,
            Cursors cursors, String caller) {
        String named = pathRepository != null ? pathRepository : parameters.get("repository");
        List<String> repositories = named == null ? List.of() : List.of(named.split(",", -1));
        repositories.forEach(Documents::checkRepository);
        Map<String, String> filters = new HashMap<>();
        for (String filter : Selection.FILTERS) {
            if (parameters.get(filter) != null) {
                filters.put(filter, parameters.get(filter));
            }
        }
        Selection selection;
        try {
            selection = Selection.parse(filters);
        } catch (InvalidFieldException e) {
            throw ApiException.badRequest(e.field(), e.getMessage());
        }
        checkBudget(selection.q());
        Sort sort = parameters.choice("sort", Sort.class, selection.q() == null ? Sort.name : Sort.relevance);
        int limit = parameters.integer("limit", 20, 1, maxPageSize);
        ArrayNode after = cursors.open(parameters.get("cursor"), caller, sort.toString(), 2);
        Set<String> aggs = new LinkedHashSet<>();
        for (String agg : parameters.get("aggs") == null ? new String[0] : parameters.get("aggs").split(",", -1)) {
            aggs.add(agg);
            if (!AGGREGATIONS.contains(agg)) {
                throw ApiException.badRequest("aggs", "unknown aggregation '" + agg + "'; aggregations: " + AGGREGATIONS);
            }
        }
        return new SearchRequest(repositories, selection, sort, limit, after, aggs);
    }

    /** The search; every user value goes in as a JSON value of its query, never into the query's syntax. */
    public SearchQuery toQuery() {
        List<Aggregation> aggregations = new ArrayList<>();
        if (aggs.contains("type")) {
            aggregations.add(new Aggregation.Terms("type", TYPE, 50, null));
        }
        if (aggs.contains("state")) {
            // States are folders st-XX above their customers: count documents by that ancestor.
            aggregations.add(new Aggregation.Terms("state", ANCESTOR_IDS, 60, BankGenerator.stateId(".*")));
        }
        if (aggs.contains("repository")) {
            aggregations.add(new Aggregation.Terms("repository", REPOSITORY, 100, null));
        }
        if (aggs.contains("month")) {
            aggregations.add(new Aggregation.Monthly("month", CREATED, "yyyy-MM"));
        }
        return SearchQuery.of(selection.query()).withSize(limit).withCountUpTo(10_000)
                .withFields(List.of(ID, REPOSITORY, PARENT_ID, PATH, TYPE, NAME, TITLE, CREATED, MODIFIED, VERSION,
                        FILE_TEXT_INDEXED))
                .withSort(sort.field, SortField.asc(ID)).withAfter(after).withAggregations(aggregations);
    }

    /**
     * The value a document this search can find has of a property, when the selection takes one value of it: the
     * routing value of a repository sharded by that property, whose shard alone need be asked. Null otherwise.
     */
    public String routingValue(String property) {
        List<String> values = selection.properties().getOrDefault(property, List.of());
        return values.size() == 1 ? values.get(0) : null;
    }

    /**
     * Refuses a {@code q} whose prefixes would expand into more terms than one search should cost: each prefix term
     * ({@code word*}) is rewritten into every indexed term it begins, so a short one, or many, make one request scan
     * a large part of the terms dictionary before any document is read.
     */
    static void checkBudget(String q) {
        if (q == null) {
            return;
        }
        int prefixes = 0;
        boolean quoted = false;
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= q.length(); i++) {
            char c = i < q.length() ? q.charAt(i) : ' ';
            if (c == '"') {
                quoted = !quoted;
                word.setLength(0);
            } else if (quoted) {
                continue;
            } else if (Character.isWhitespace(c) || "()|+-~".indexOf(c) >= 0) {
                word.setLength(0);
            } else if (c == '*') {
                if (word.length() < MIN_PREFIX) {
                    throw expensive("a prefix search needs at least " + MIN_PREFIX + " characters before '*', was '"
                            + word + "*'");
                }
                if (++prefixes > MAX_PREFIXES) {
                    throw expensive("q has more than " + MAX_PREFIXES + " prefix terms ('word*')");
                }
                word.setLength(0);
            } else {
                word.append(c);
            }
        }
    }

    private static ApiException expensive(String message) {
        return new ApiException(400, "query_too_expensive", "q", message + ": narrow the search");
    }

    private static Set<String> parameters() {
        Set<String> parameters = new HashSet<>(Set.of("repository", "sort", "limit", "cursor", "aggs"));
        parameters.addAll(Selection.FILTERS);
        return Set.copyOf(parameters);
    }
}
