package io.volumizer.stores.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a search found.
 *
 * @param total        how many documents matched, or null when the search did not count them
 * @param hits         the page of hits, in the search's order
 * @param aggregations each aggregation's buckets, by its name
 * @param shards       the shards asked
 */
public record SearchResult(Total total, List<Hit> hits, Map<String, List<Bucket>> aggregations, Shards shards) {

    /** What a search of no index finds. */
    public static SearchResult empty() {
        return new SearchResult(new Total(0, true), List.of(), Map.of(), new Shards(0, 0));
    }

    /**
     * The results of one search asked in parts (repositories whose shards it reaches by different routing values) as
     * one: the hits in the query's order, its first {@code size} kept (each part answered its own first
     * {@code size} after the same cursor, so the page and its cursor are the ones a single search gives); the totals
     * added up, counted up to the query's {@code countUpTo} as one search counts; each aggregation's buckets and the
     * shards added up. A terms aggregation's counts are as approximate as an engine's across its shards: a part
     * answers its most frequent values only, so {@link #widened} asks each part for more of them than the query
     * shows, as an engine asks each shard.
     */
    public static SearchResult merge(SearchQuery query, List<SearchResult> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        List<Hit> hits = new ArrayList<>();
        Total total = new Total(0, true);
        Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
        int shards = 0;
        int successful = 0;
        for (SearchResult part : parts) {
            hits.addAll(part.hits());
            total = total == null || part.total() == null ? null
                    : new Total(total.value() + part.total().value(), total.exact() && part.total().exact());
            part.aggregations().forEach((name, buckets) -> buckets.forEach(bucket -> counts
                    .computeIfAbsent(name, k -> new LinkedHashMap<>()).merge(bucket.key(), bucket.count(), Long::sum)));
            shards += part.shards().total();
            successful += part.shards().successful();
        }
        hits.sort(order(query.sort()));
        Map<String, List<Bucket>> aggregations = new LinkedHashMap<>();
        for (Aggregation aggregation : query.aggregations()) {
            Map<String, Long> byKey = counts.getOrDefault(aggregation.name(), Map.of());
            List<Bucket> buckets = byKey.entrySet().stream().map(e -> new Bucket(e.getKey(), e.getValue())).toList();
            // As the engines order them: terms by count (then key), months by date.
            aggregations.put(aggregation.name(), aggregation instanceof Aggregation.Terms terms
                    ? buckets.stream().sorted(Comparator.comparingLong(Bucket::count).reversed()
                            .thenComparing(Bucket::key)).limit(terms.size()).toList()
                    : buckets.stream().sorted(Comparator.comparing(Bucket::key)).toList());
        }
        // Uncounted (0), the parts answer no total; otherwise one search stops counting at the limit.
        if (total != null && query.countUpTo() > 0 && total.value() > query.countUpTo()) {
            total = new Total(query.countUpTo(), false);
        }
        return new SearchResult(total, hits.stream().limit(query.size()).toList(), aggregations,
                new Shards(shards, successful));
    }

    /**
     * The query a part of a search asked in parts is sent: each terms aggregation asks for the values an engine asks
     * each of its shards for ({@code size × 1.5 + 10}), so that the merged counts are as near as a single search's.
     */
    public static SearchQuery widened(SearchQuery query) {
        return query.withAggregations(query.aggregations().stream().map(aggregation -> aggregation instanceof
                Aggregation.Terms terms ? new Aggregation.Terms(terms.name(), terms.field(), terms.size() * 3 / 2 + 10,
                        terms.include()) : aggregation).toList());
    }

    /**
     * Hits in the order of their sort values, each field ascending or descending as the query sorts by it, a hit
     * without a value last (as the engines put missing values); by score without a sort.
     */
    static Comparator<Hit> order(List<SortField> sort) {
        if (sort.isEmpty()) {
            return Comparator.comparing(Hit::score, Comparator.nullsLast(Comparator.<Double>reverseOrder()));
        }
        Comparator<Hit> order = null;
        for (int i = 0; i < sort.size(); i++) {
            int field = i;
            Comparator<JsonNode> values = SearchResult::compareValues;
            Comparator<Hit> next = Comparator.comparing(hit -> value(hit, field),
                    Comparator.nullsLast(sort.get(i).descending() ? values.reversed() : values));
            order = order == null ? next : order.thenComparing(next);
        }
        return order;
    }

    private static JsonNode value(Hit hit, int field) {
        JsonNode value = hit.sort() == null ? null : hit.sort().get(field);
        return value == null || value.isNull() ? null : value;
    }

    private static int compareValues(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() && b.isIntegralNumber()) {
            return Long.compare(a.asLong(), b.asLong());
        }
        if (a.isNumber() && b.isNumber()) {
            return Double.compare(a.asDouble(), b.asDouble());
        }
        return compareCodePoints(a.asText(), b.asText());
    }

    /** Text in Unicode code point order, as the engines sort keywords (not Java's UTF-16 order). */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /** @param exact false when the count stopped at the search's {@link SearchQuery#countUpTo}: at least {@code value} */
    public record Total(long value, boolean exact) {
    }

    /**
     * One document found.
     *
     * @param index   the concrete index (generation) it is in
     * @param version its version, or -1 when not asked for (a scan always asks)
     * @param score   its relevance, or null when hits were sorted by a field
     * @param source  the fields asked for (an empty object for none)
     * @param sort    its sort values (what {@link SearchQuery#after} continues after), or null when not sorted
     */
    public record Hit(String index, String id, long version, Double score, ObjectNode source, ArrayNode sort) {
    }

    /** @param key a month's formatted date, or the value */
    public record Bucket(String key, long count) {
    }

    /**
     * @param total one where the search carried a routing value, every shard of the indices otherwise (summed over
     *              the parts of a search asked in parts)
     */
    public record Shards(int total, int successful) {
    }
}
