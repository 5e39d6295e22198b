package io.volumizer.stores.search;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A search: which documents ({@link #query}, in the query DSL that Elasticsearch and OpenSearch share, as
 * {@link SelectionQuery} builds it), what of them comes back, in which order, and how they are counted. Built with
 * {@link #of} and the withers.
 *
 * @param query        the query, or null for every document
 * @param fields       the source fields each hit carries: null for all of them, empty for none
 * @param sort         the order (empty: by relevance); end it on a unique field for pages that never skip or repeat
 * @param after        the sort values of the previous page's last hit, to continue after it, or null
 * @param size         hits at most
 * @param countUpTo    0: matches are not counted; n: counted exactly up to n (then "at least n");
 *                     {@link Integer#MAX_VALUE}: counted exactly
 * @param routing      the shard routing value every document wanted was indexed with, so that only its shard is
 *                     asked; null to ask every shard
 * @param aggregations what the matches are counted by
 * @param timeout      how long each shard searches before it answers with what it found, or null for no limit
 */
public record SearchQuery(ObjectNode query, List<String> fields, List<SortField> sort, ArrayNode after, int size,
        int countUpTo, String routing, List<Aggregation> aggregations, Duration timeout) {

    /** The engines' default page. */
    private static final int DEFAULT_SIZE = 10;

    public SearchQuery {
        fields = fields == null ? null : List.copyOf(fields);
        sort = List.copyOf(sort);
        aggregations = List.copyOf(aggregations);
    }

    /** The first {@value #DEFAULT_SIZE} matches of {@code query} by relevance, with their whole source, uncounted. */
    public static SearchQuery of(ObjectNode query) {
        return new SearchQuery(query, null, List.of(), null, DEFAULT_SIZE, 0, null, List.of(), null);
    }

    public SearchQuery withQuery(ObjectNode query) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withFields(List<String> fields) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withSort(SortField... sort) {
        return new SearchQuery(query, fields, List.of(sort), after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withAfter(ArrayNode after) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withSize(int size) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withCountUpTo(int countUpTo) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withRouting(String routing) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withTimeout(Duration timeout) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }

    public SearchQuery withAggregations(List<Aggregation> aggregations) {
        return new SearchQuery(query, fields, sort, after, size, countUpTo, routing, aggregations, timeout);
    }
}
