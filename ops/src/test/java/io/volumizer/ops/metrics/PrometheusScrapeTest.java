package io.volumizer.ops.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class PrometheusScrapeTest {

    @Test
    void readsNamesLabelsAndValuesAndSkipsComments() {
        List<PrometheusScrape.Sample> samples = PrometheusScrape.parse("""
                # HELP written Written documents
                # TYPE written gauge
                flink_written{stage="import",job_name="a \\"quoted\\" name",} 3.0
                jvm_threads_live_threads 42
                volumizer_api_requests_seconds_bucket{route="/api/v1/{repository}/documents/{id}",le="0.1"} 7
                """);

        assertThat(samples).containsExactly(
                new PrometheusScrape.Sample("flink_written", Map.of("stage", "import", "job_name", "a \\\"quoted\\\" name"), 3.0),
                new PrometheusScrape.Sample("jvm_threads_live_threads", Map.of(), 42),
                new PrometheusScrape.Sample("volumizer_api_requests_seconds_bucket",
                        Map.of("route", "/api/v1/{repository}/documents/{id}", "le", "0.1"), 7));
    }
}
