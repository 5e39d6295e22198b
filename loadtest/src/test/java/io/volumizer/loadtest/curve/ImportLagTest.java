package io.volumizer.loadtest.curve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.MetricNames;

class ImportLagTest {

    private static PrometheusScrape.Sample pending(String job, String subtask, double records) {
        return new PrometheusScrape.Sample(MetricNames.SOURCE_PENDING_RECORDS,
                Map.of("job_id", job, "subtask_index", subtask), records);
    }

    @Test
    void sumsTheImportsSubtasksAlone() {
        List<PrometheusScrape.Sample> samples = List.of(pending("import", "0", 1_200), pending("import", "1", 0),
                pending("other", "0", 9_000), new PrometheusScrape.Sample("flink_taskmanager_job_task_operator_"
                        + "volumizer_stage_written", Map.of("job_id", "import"), 5));
        assertThat(ImportLag.of(samples, Set.of("import"))).isEqualTo(OptionalDouble.of(1_200));
        assertThat(ImportLag.of(List.of(pending("import", "0", 0), pending("import", "1", 0)), Set.of("import")))
                .isEqualTo(OptionalDouble.of(0));
    }

    @Test
    void isUnknownWhenNoSubtaskReportedIt() {
        assertThat(ImportLag.of(List.of(pending("other", "0", 0)), Set.of("import"))).isEmpty();
        assertThat(ImportLag.of(List.of(pending("import", "0", Double.NaN)), Set.of("import"))).isEmpty();
    }
}
