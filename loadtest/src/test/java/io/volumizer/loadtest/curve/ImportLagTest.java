package io.volumizer.loadtest.curve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.metrics.PrometheusScrape;

class ImportLagTest {

    /** A subtask's lag as Flink's Prometheus reporter exports its Kafka source's (labels cut to a few). */
    static String pending(String job, int subtask, String records) {
        return "flink_taskmanager_job_task_operator_pendingRecords{job_id=\"" + job + "\",operator_name=\"Source:_Documents\","
                + "subtask_index=\"" + subtask + "\"} " + records;
    }

    private static List<PrometheusScrape.Sample> scrape(String... lines) {
        return PrometheusScrape.parse(String.join("\n", lines));
    }

    @Test
    void sumsTheImportsSubtasksAlone() {
        ImportLag lag = ImportLag.of(scrape(pending("import", 0, "1200.0"), pending("import", 1, "0.0"),
                pending("other", 0, "9000.0"),
                "flink_taskmanager_job_task_operator_volumizer_stage_written{job_id=\"import\"} 5.0"), Set.of("import"));
        assertThat(lag).isEqualTo(new ImportLag(1_200, 2));
        assertThat(lag.caughtUp(2)).isFalse();
        assertThat(ImportLag.of(scrape(pending("import", 0, "0.0"), pending("import", 1, "0.0")), Set.of("import"))
                .caughtUp(2)).isTrue();
    }

    @Test
    void saysNothingOfSubtasksThatDidNotReport() {
        ImportLag one = ImportLag.of(scrape(pending("import", 0, "0.0")), Set.of("import"));
        assertThat(one.caughtUp(1)).isTrue();
        assertThat(one.caughtUp(2)).as("the other subtask's TaskManager did not answer").isFalse();
        assertThat(ImportLag.of(scrape(pending("other", 0, "0.0")), Set.of("import")).caughtUp(0)).isFalse();
        assertThat(ImportLag.of(scrape(pending("import", 0, "NaN")), Set.of("import"))).isEqualTo(new ImportLag(0, 0));
    }
}
