package io.volumizer.api.search;

import static io.volumizer.sinks.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.sinks.DocumentFields.CREATED;
import static io.volumizer.sinks.DocumentFields.FULLTEXT;
import static io.volumizer.sinks.DocumentFields.ID;
import static io.volumizer.sinks.DocumentFields.MODIFIED;
import static io.volumizer.sinks.DocumentFields.NAME;
import static io.volumizer.sinks.DocumentFields.PARENT_ID;
import static io.volumizer.sinks.DocumentFields.PATH;
import static io.volumizer.sinks.DocumentFields.REPOSITORY;
import static io.volumizer.sinks.DocumentFields.TITLE;
import static io.volumizer.sinks.DocumentFields.TYPE;
import static io.volumizer.sinks.DocumentFields.VERSION;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.documents.Documents;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.generators.BankGenerator;

/**
 * A search, read strictly from the query string and turned into an Elasticsearch query: {@code q} is simple
 * query syntax (words, "phrases", -exclusions, prefix*) over the title and fulltext; filters on type, state and
 * creation date; sort by relevance, name or date; keyset pages with search_after; terms and monthly aggregations.
 */
public record SearchRequest(String repository, String q, List<String> types, List<String> states, Instant from,
        Instant to, Sort sort, int limit, ArrayNode after, Set<String> aggs) {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final Set<String> PARAMETERS = Set.of("repository", "q", "type", "state", "from", "to", "sort",
            "limit", "cursor", "aggs");
    private static final List<String> AGGREGATIONS = List.of("type", "state", "month");
    private static final int MAX_QUERY_LENGTH = 512;

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

    /** @param pathRepository the repository of /api/v1/{repository}/search, or null for /api/v1/search */
    public static SearchRequest parse(QueryParameters parameters, String pathRepository, int maxPageSize) {
        String repository = pathRepository != null ? pathRepository : parameters.get("repository");
        if (repository != null) {
            Documents.checkRepository(repository);
        }
        String q = parameters.get("q");
        if (q != null) {
            checkSyntax(q);
        }
        List<String> types = list(parameters.get("type"), "type", "[A-Z][A-Za-z0-9]{0,63}", "type names such as Statement");
        List<String> states = list(parameters.get("state"), "state", "[A-Za-z]{2}", "two-letter state codes such as CA")
                .stream().map(String::toUpperCase).toList();
        Instant from = instant(parameters.get("from"), "from", false);
        Instant to = instant(parameters.get("to"), "to", true);
        if (from != null && to != null && from.isAfter(to)) {
            throw ApiException.badRequest("from", "from must not be after to");
        }
        Sort sort = parameters.choice("sort", Sort.class, q == null ? Sort.name : Sort.relevance);
        int limit = parameters.integer("limit", 20, 1, maxPageSize);
        ArrayNode after = Cursors.decode(parameters.get("cursor"), sort.toString(), 2);
        Set<String> aggs = new LinkedHashSet<>(list(parameters.get("aggs"), "aggs", "[a-z]+", "of " + AGGREGATIONS));
        for (String agg : aggs) {
            if (!AGGREGATIONS.contains(agg)) {
                throw ApiException.badRequest("aggs", "unknown aggregation '" + agg + "'; aggregations: " + AGGREGATIONS);
            }
        }
        return new SearchRequest(repository, q, types, states, from, to, sort, limit, after, aggs);
    }

    /** The Elasticsearch request body; every user value goes in as a JSON value. */
    public ObjectNode toQuery() {
        ObjectNode body = JSON.createObjectNode().put("size", limit).put("track_total_hits", 10_000);
        body.putArray("_source").add(ID).add(REPOSITORY).add(PARENT_ID).add(PATH).add(TYPE).add(NAME)
                .add(TITLE).add(CREATED).add(MODIFIED).add(VERSION);
        ObjectNode bool = body.putObject("query").putObject("bool");
        if (q != null) {
            bool.putObject("must").putObject("simple_query_string").put("query", q).put("default_operator", "and")
                    .put("flags", "AND|OR|NOT|PHRASE|PREFIX|PRECEDENCE|WHITESPACE|ESCAPE")
                    .putArray("fields").add(TITLE + "^2").add(FULLTEXT);
        }
        ArrayNode filter = bool.putArray("filter");
        if (!types.isEmpty()) {
            filter.addObject().putObject("terms").set(TYPE, strings(types));
        }
        if (!states.isEmpty()) {
            filter.addObject().putObject("terms").set(ANCESTOR_IDS,
                    strings(states.stream().map(BankGenerator::stateId).toList()));
        }
        if (from != null || to != null) {
            ObjectNode range = filter.addObject().putObject("range").putObject(CREATED);
            if (from != null) {
                range.put("gte", from.toString());
            }
            if (to != null) {
                range.put("lte", to.toString());
            }
        }
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
            if (aggs.contains("month")) {
                aggregations.putObject("month").putObject("date_histogram").put("field", CREATED)
                        .put("calendar_interval", "month").put("format", "yyyy-MM").put("min_doc_count", 1);
            }
        }
        return body;
    }

    /** Refuses what Elasticsearch would read differently from what the user meant: unbalanced quotes or brackets. */
    static void checkSyntax(String q) {
        if (q.length() > MAX_QUERY_LENGTH) {
            throw ApiException.badRequest("q", "q is at most " + MAX_QUERY_LENGTH + " characters, was " + q.length());
        }
        boolean quoted = false;
        int depth = 0;
        for (int i = 0; i < q.length(); i++) {
            char c = q.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth < 0) {
                throw ApiException.badRequest("q", "q has an unmatched ')' at position " + (i + 1));
            }
        }
        if (quoted) {
            throw ApiException.badRequest("q", "q has an unterminated \" (phrase)");
        }
        if (depth > 0) {
            throw ApiException.badRequest("q", "q has " + depth + " unclosed '('");
        }
    }

    private static List<String> list(String value, String field, String pattern, String expected) {
        List<String> items = new ArrayList<>();
        if (value == null) {
            return items;
        }
        for (String item : value.split(",", -1)) {
            if (!item.matches(pattern)) {
                throw ApiException.badRequest(field, field + " must be a comma-separated list of " + expected + ", was '" + value + "'");
            }
            items.add(item);
        }
        return items;
    }

    private static Instant instant(String value, String field, boolean endOfDay) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 10) {
                LocalDate day = LocalDate.parse(value);
                return (endOfDay ? day.plusDays(1).atStartOfDay(ZoneOffset.UTC).minusNanos(1_000_000)
                        : day.atStartOfDay(ZoneOffset.UTC)).toInstant();
            }
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(field, field + " must be a date (2025-01-31) or an instant (2025-01-31T12:00:00Z), was '" + value + "'");
        }
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode array = JSON.createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
