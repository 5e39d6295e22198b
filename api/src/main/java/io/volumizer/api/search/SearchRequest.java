package io.volumizer.api.search;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.CREATED;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PATH;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.documents.Documents;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.generators.BankGenerator;
import io.volumizer.domain.selection.Selection;
import io.volumizer.stores.search.IndexLayout;

/**
 * A search, read strictly from the query string and turned into an Elasticsearch query: the documents of a
 * {@link Selection} (text, type, state, customer and creation date, the filters bulk commands select with too), in
 * the repositories named (none: all); sort by relevance, name or date; keyset pages with search_after; terms and
 * monthly aggregations.
 */
public record SearchRequest(List<String> repositories, Selection selection, Sort sort, int limit, ArrayNode after,
        Set<String> aggs) {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final Set<String> PARAMETERS = parameters();
    private static final List<String> AGGREGATIONS = List.of("type", "state", "month", "repository");

    /** Orders of results; each ends on the id, so pages never skip or repeat ties. */
    public enum Sort {
        relevance("_score", "desc"), name(NAME, "asc"), nameDesc(NAME, "desc"), date(CREATED, "asc"),
        dateDesc(CREATED, "desc");

        final String field;
        final String order;

        Sort(String field, String order) {
            this.field = field;
            this.order = order;
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
    public static SearchRequest parse(QueryParameters parameters, String pathRepository, int maxPageSize) {
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
        } catch (Selection.InvalidSelectionException e) {
            throw ApiException.badRequest(e.filter(), e.getMessage());
        }
        Sort sort = parameters.choice("sort", Sort.class, selection.q() == null ? Sort.name : Sort.relevance);
        int limit = parameters.integer("limit", 20, 1, maxPageSize);
        ArrayNode after = Cursors.decode(parameters.get("cursor"), sort.toString(), 2);
        Set<String> aggs = new LinkedHashSet<>();
        for (String agg : parameters.get("aggs") == null ? new String[0] : parameters.get("aggs").split(",", -1)) {
            aggs.add(agg);
            if (!AGGREGATIONS.contains(agg)) {
                throw ApiException.badRequest("aggs", "unknown aggregation '" + agg + "'; aggregations: " + AGGREGATIONS);
            }
        }
        return new SearchRequest(repositories, selection, sort, limit, after, aggs);
    }

    /** The Elasticsearch request body; every user value goes in as a JSON value. */
    public ObjectNode toQuery() {
        ObjectNode body = JSON.createObjectNode().put("size", limit).put("track_total_hits", 10_000);
        body.putArray("_source").add(ID).add(REPOSITORY).add(PARENT_ID).add(PATH).add(TYPE).add(NAME)
                .add(TITLE).add(CREATED).add(MODIFIED).add(VERSION);
        body.set("query", selection.query());
        ArrayNode order = body.putArray("sort");
        order.addObject().put(sort.field, sort.order);
        order.addObject().put(ID, "asc");
        if (after != null) {
            body.set("search_after", after);
        }
        if (!aggs.isEmpty()) {
            ObjectNode aggregations = body.putObject("aggs");
            if (aggs.contains("type")) {
                aggregations.putObject("type").putObject("terms").put("field", TYPE).put("size", 50);
            }
            if (aggs.contains("state")) {
                // States are folders st-XX above their customers: count documents by that ancestor.
                aggregations.putObject("state").putObject("terms").put("field", ANCESTOR_IDS).put("size", 60)
                        .put("include", BankGenerator.stateId(".*"));
            }
            if (aggs.contains("repository")) {
                aggregations.putObject("repository").putObject("terms").put("field", REPOSITORY).put("size", 100);
            }
            if (aggs.contains("month")) {
                aggregations.putObject("month").putObject("date_histogram").put("field", CREATED)
                        .put("calendar_interval", "month").put("format", "yyyy-MM").put("min_doc_count", 1);
            }
        }
        return body;
    }

    /**
     * The shard routing value that every document this search can find was indexed with, so that only its shard is
     * asked: when each repository searched is sharded by the same property and the selection takes one value of it.
     * Null otherwise (every shard is asked).
     *
     * @param searched the repositories the search runs in
     * @param layouts  each repository's index layout
     */
    public String routing(List<String> searched, Map<String, IndexLayout> layouts) {
        Set<String> properties = new HashSet<>();
        for (String repository : searched) {
            properties.add(layouts.getOrDefault(repository, IndexLayout.TEMPLATE).routing());
        }
        if (searched.isEmpty() || properties.size() != 1 || properties.contains(null)) {
            return null;
        }
        List<String> values = selection.properties().getOrDefault(properties.iterator().next(), List.of());
        return values.size() == 1 ? values.get(0) : null;
    }

    private static Set<String> parameters() {
        Set<String> parameters = new java.util.HashSet<>(Set.of("repository", "sort", "limit", "cursor", "aggs"));
        parameters.addAll(Selection.FILTERS);
        return Set.copyOf(parameters);
    }
}
