package io.volumizer.stores.search;

import java.util.List;
import java.util.Map;

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

    /** @param total one where the search carried a routing value, every shard of the indices otherwise */
    public record Shards(int total, int successful) {
    }
}
