package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.search.Aggregation;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;
import io.volumizer.stores.search.SortField;

/** What a search becomes in Elasticsearch's request, and what its answer is read into. */
class Elasticsearch7ReaderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSearchIsTheBodyTheApiHasAlwaysSent() throws Exception {
        ObjectNode query = (ObjectNode) JSON.readTree("{\"bool\":{\"filter\":[{\"term\":{\"type\":\"Statement\"}}]}}");
        ArrayNode after = (ArrayNode) JSON.readTree("[\"2025-01-01T00:00:00Z\",\"s-1\"]");
        SearchQuery search = SearchQuery.of(query).withSize(7).withCountUpTo(10_000).withFields(List.of("id", "name"))
                .withSort(SortField.desc("created"), SortField.asc("id")).withAfter(after)
                .withAggregations(List.of(new Aggregation.Terms("state", "ancestorIds", 60, "st-.*"),
                        new Aggregation.Monthly("month", "created", "yyyy-MM")));

        assertThat(Elasticsearch7Reader.body(search)).isEqualTo(JSON.readTree("""
                {"size":7,"track_total_hits":10000,"_source":["id","name"],
                 "query":{"bool":{"filter":[{"term":{"type":"Statement"}}]}},
                 "sort":[{"created":"desc"},{"id":"asc"}],
                 "search_after":["2025-01-01T00:00:00Z","s-1"],
                 "aggs":{"state":{"terms":{"field":"ancestorIds","size":60,"include":"st-.*"}},
                         "month":{"date_histogram":{"field":"created","calendar_interval":"month","format":"yyyy-MM",
                                                    "min_doc_count":1}}}}
                """));
    }

    @Test
    void relevanceIsTheScoreAndCountsAndSourcesHaveTheirDefaults() throws Exception {
        SearchQuery byRelevance = SearchQuery.of(null).withSort(SortField.relevance(), SortField.asc("id"))
                .withAggregations(List.of(new Aggregation.Terms("type", "type", 50, null),
                        new Aggregation.Monthly("month", "created", null)));
        assertThat(Elasticsearch7Reader.body(byRelevance)).isEqualTo(JSON.readTree("""
                {"size":10,"track_total_hits":false,"sort":[{"_score":"desc"},{"id":"asc"}],
                 "aggs":{"type":{"terms":{"field":"type","size":50}},
                         "month":{"date_histogram":{"field":"created","calendar_interval":"month","min_doc_count":1}}}}
                """));
        JsonNode exact = Elasticsearch7Reader.body(SearchQuery.of(null).withCountUpTo(Integer.MAX_VALUE)
                .withFields(List.of()));
        assertThat(exact.path("track_total_hits").asBoolean()).isTrue();
        assertThat(exact.path("_source").isBoolean()).as("no source: false").isTrue();
        assertThat(exact.path("_source").asBoolean()).isFalse();
    }

    @Test
    void anAnswerIsReadIntoHitsTotalsBucketsAndShards() throws Exception {
        SearchResult result = Elasticsearch7Reader.result(JSON.readTree("""
                {"_shards":{"total":3,"successful":3},
                 "hits":{"total":{"value":10000,"relation":"gte"},"hits":[
                   {"_index":"volumizer-bank.1","_id":"s-1","_score":1.5,"_source":{"id":"s-1"}},
                   {"_index":"volumizer-bank.1","_id":"s-2","_version":9,"_score":null,"sort":["b","s-2"]}]},
                 "aggregations":{
                   "type":{"buckets":[{"key":"Statement","doc_count":9}]},
                   "month":{"buckets":[{"key":1735689600000,"key_as_string":"2025-01","doc_count":3}]}}}
                """));

        assertThat(result.total()).isEqualTo(new SearchResult.Total(10000, false));
        assertThat(result.shards()).isEqualTo(new SearchResult.Shards(3, 3));
        SearchResult.Hit scored = result.hits().get(0);
        SearchResult.Hit sorted = result.hits().get(1);
        assertThat(scored.index()).isEqualTo("volumizer-bank.1");
        assertThat(scored.score()).isEqualTo(1.5);
        assertThat(scored.version()).isEqualTo(-1);
        assertThat(scored.source().path("id").asText()).isEqualTo("s-1");
        assertThat(scored.sort()).isNull();
        assertThat(sorted.score()).isNull();
        assertThat(sorted.version()).as("the document's version, of the engine's (with its file's text)").isEqualTo(4);
        assertThat(sorted.source().isEmpty()).isTrue();
        assertThat(sorted.sort()).isEqualTo(JSON.readTree("[\"b\",\"s-2\"]"));
        assertThat(result.aggregations().get("type")).containsExactly(new SearchResult.Bucket("Statement", 9));
        assertThat(result.aggregations().get("month")).containsExactly(new SearchResult.Bucket("2025-01", 3));
        assertThat(Elasticsearch7Reader.result(JSON.readTree("{\"hits\":{\"hits\":[]}}")).total())
                .as("not counted").isNull();
    }
}
