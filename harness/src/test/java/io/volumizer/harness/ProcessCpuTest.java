package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    /** A clock and CPU counters the test moves: 1 s and 2 CPU s of flink per 100 documents. */
    private long nanos;
    private double flinkSeconds;

    private ProcessCpu.Window window() {
        return new ProcessCpu.Window(() -> Map.of("flink", flinkSeconds), () -> nanos, 1000, 0.1, 0.9);
    }

    private void advanceTo(ProcessCpu.Window window, long count) {
        nanos = count * 10_000_000L;
        flinkSeconds = count * 0.02;
        window.observe(count);
    }

    @Test
    void aDocumentsCostIsTheCpuBetweenTheFirstReadingsAtEachEndOfTheWindowLessTheIdleRate() {
        ProcessCpu.Window window = window();
        // the job's start: 5 CPU s before any document, outside the window
        flinkSeconds = 5;
        window.observe(0);
        for (long count : new long[] {50, 120, 400, 880, 950, 1000}) {
            nanos = count * 10_000_000L;
            flinkSeconds = 5 + count * 0.02;
            window.observe(count);
        }

        // 120 to 950: 830 documents in 8.3 s, 16.6 CPU s, of which 0.1 CPU s/s idle
        assertThat(window.perDocument(Map.of("flink", 0.1)).get("flink")).isCloseTo((16.6 - 0.83) / 830, within(1e-9));
        assertThat(window.rate()).isCloseTo(100, within(1e-9));
    }

    @Test
    void aStageWhoseProgressWasNotReadInsideTheWindowIsAnErrorNotAFigure() {
        ProcessCpu.Window window = window();
        advanceTo(window, 0);
        advanceTo(window, 1000);

        assertThatThrownBy(() -> window.perDocument(Map.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("too short a run");
    }
}
