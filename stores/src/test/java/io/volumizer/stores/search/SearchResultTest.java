package io.volumizer.stores.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

class SearchResultTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static SearchResult.Hit hit(String id, long created) {
        ArrayNode sort = JSON.createArrayNode().add(created).add(id);
        return new SearchResult.Hit("index", id, -1, null, JSON.createObjectNode(), sort);
    }

    @Test
    void partsOfOneSearchMergeAsTheEngineOrdersThemAskedOnce() {
        SearchQuery query = SearchQuery.of(JSON.createObjectNode()).withSize(3)
                .withSort(SortField.desc("created"), SortField.asc("id"))
                .withAggregations(List.of(new Aggregation.Terms("type", "type", 2, null),
                        new Aggregation.Monthly("month", "created", "yyyy-MM")));
        SearchResult live = new SearchResult(new SearchResult.Total(3, true),
                List.of(hit("b", 30), hit("d", 20), hit("e", 10)),
                Map.of("type", List.of(new SearchResult.Bucket("Statement", 2), new SearchResult.Bucket("Note", 1)),
                        "month", List.of(new SearchResult.Bucket("2024-02", 1), new SearchResult.Bucket("2024-03", 2))),
                new SearchResult.Shards(1, 1));
        SearchResult archive = new SearchResult(new SearchResult.Total(10_000, false),
                List.of(hit("a", 30), hit("c", 25), hit("f", 5)),
                Map.of("type", List.of(new SearchResult.Bucket("Letter", 2), new SearchResult.Bucket("Note", 1)),
                        "month", List.of(new SearchResult.Bucket("2024-01", 3))),
                new SearchResult.Shards(2, 2));

        SearchResult merged = SearchResult.merge(query, List.of(live, archive));

        assertThat(merged.hits()).extracting(SearchResult.Hit::id).as("newest first, ties by id, the query's size")
                .containsExactly("a", "b", "c");
        assertThat(merged.total()).isEqualTo(new SearchResult.Total(10_003, false));
        assertThat(merged.aggregations().get("type")).as("by count then key, cut to the terms' size").containsExactly(
                new SearchResult.Bucket("Letter", 2), new SearchResult.Bucket("Note", 2));
        assertThat(merged.aggregations().get("month")).extracting(SearchResult.Bucket::key)
                .containsExactly("2024-01", "2024-02", "2024-03");
        assertThat(merged.shards()).isEqualTo(new SearchResult.Shards(3, 3));
        assertThat(SearchResult.merge(query, List.of(live))).isSameAs(live);
    }

    @Test
    void aHitWithoutASortValueComesLastEitherWay() {
        ArrayNode missing = JSON.createArrayNode().addNull().add("m");
        SearchResult.Hit without = new SearchResult.Hit("index", "m", -1, null, JSON.createObjectNode(), missing);
        assertThat(List.of(without, hit("x", 1)).stream().sorted(SearchResult.order(List.of(SortField.desc("created"),
                SortField.asc("id")))).map(SearchResult.Hit::id)).containsExactly("x", "m");
        assertThat(List.of(without, hit("x", 1)).stream().sorted(SearchResult.order(List.of(SortField.asc("created"),
                SortField.asc("id")))).map(SearchResult.Hit::id)).containsExactly("x", "m");
    }

    @Test
    void aMergedTotalCountsUpToTheQuerysLimitAsOneSearchCounts() {
        SearchQuery query = SearchQuery.of(JSON.createObjectNode()).withSize(1).withCountUpTo(10_000);
        SearchResult part = new SearchResult(new SearchResult.Total(6_000, true), List.of(), Map.of(),
                new SearchResult.Shards(1, 1));
        assertThat(SearchResult.merge(query, List.of(part, part)).total()).isEqualTo(new SearchResult.Total(10_000, false));
    }

    @Test
    void partsAskForMoreTermsThanTheQueryShowsAsAnEngineAsksItsShards() {
        SearchQuery query = SearchQuery.of(JSON.createObjectNode()).withAggregations(List.of(
                new Aggregation.Terms("type", "type", 50, null), new Aggregation.Monthly("month", "created", null)));
        assertThat(SearchResult.widened(query).aggregations()).containsExactly(
                new Aggregation.Terms("type", "type", 85, null), new Aggregation.Monthly("month", "created", null));
    }

    @Test
    void textIsOrderedByCodePointsAsTheEnginesOrderKeywords() {
        String emoji = new String(Character.toChars(0x1F600));
        assertThat(SearchResult.compareCodePoints(emoji, "\uFF21")).as("U+1F600 after U+FF21").isPositive();
        assertThat(emoji.compareTo("\uFF21")).as("where UTF-16 order says otherwise").isNegative();
        assertThat(SearchResult.compareCodePoints("ab", "abc")).isNegative();
        assertThat(SearchResult.compareCodePoints("abc", "abc")).isZero();
    }
}
