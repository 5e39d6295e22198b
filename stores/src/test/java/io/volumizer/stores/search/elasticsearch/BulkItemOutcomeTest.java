package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.volumizer.stores.search.elasticsearch.Elasticsearch7Writer.Outcome;

/** What the index stage does with each item of a _bulk answer: only a document's own fault is dead-lettered. */
class BulkItemOutcomeTest {

    @ParameterizedTest(name = "{0} {1} (delete: {2}) -> {3}")
    @CsvSource({
        "201, '', false, WRITTEN",
        "200, '', false, WRITTEN",
        "404, '', true, WRITTEN",
        "409, version_conflict_engine_exception, false, STALE",
        "429, es_rejected_execution_exception, false, RETRY",
        "503, unavailable_shards_exception, false, RETRY",
        "500, node_not_connected_exception, false, RETRY",
        "403, cluster_block_exception, false, RETRY",
        "400, mapper_parsing_exception, false, FAILED",
        "400, illegal_argument_exception, false, FAILED",
        "404, index_not_found_exception, false, FAILED"})
    void outageAndOverloadAreRetriedAndOnlyTheDocumentsOwnFaultFails(int status, String type, boolean delete,
            Outcome expected) {
        assertThat(Elasticsearch7Writer.outcome(status, type, delete)).isEqualTo(expected);
    }
}
