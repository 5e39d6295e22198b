package io.volumizer.ops.throttle.hold;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.MetricNames;

class PassedCountsTest {

    private static PassedCounts counts(String... series) {
        String name = MetricNames.prometheusName(MetricNames.THROTTLE_PASSED);
        StringBuilder text = new StringBuilder();
        for (String each : series) {
            String[] parts = each.split("=");
            text.append(name).append("{job_id=\"").append(parts[0].split("/")[0]).append("\",task_attempt_id=\"")
                    .append(parts[0].split("/")[1]).append("\"} ").append(parts[1]).append('\n');
        }
        return PassedCounts.of(PrometheusScrape.parse(text.toString()), Set.of("a"));
    }

    @Test
    void countsWhatTheSeriesBothReadingsHoldGained() {
        PassedCounts before = counts("a/0=100", "a/1=100", "b/0=5");
        assertThat(counts("a/0=150", "a/1=130", "b/0=500").since(before)).as("another job's does not count").isEqualTo(80);
        // a TaskManager that did not answer adds nothing now, nor twice when it answers again
        assertThat(counts("a/0=150").since(before)).isEqualTo(50);
        // a restarted subtask's counter began again: a new attempt, a new series
        assertThat(counts("a/0=160", "a/2=10").since(before)).isEqualTo(60);
        assertThat(counts("a/3=10").since(before)).as("nothing shared").isNaN();
        assertThat(counts().since(counts())).isZero();
    }
}
