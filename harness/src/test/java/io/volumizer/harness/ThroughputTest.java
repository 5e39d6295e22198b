package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThroughputTest {

    /** 1,000 documents/s until 10 s, stalled until 20 s, 200/s until 25 s, then 800/s. */
    private static Throughput run() {
        Throughput throughput = new Throughput();
        long count = 0;
        for (long millis = 0; millis <= 40_000; millis += 500) {
            throughput.record(millis, count);
            count += millis < 10_000 ? 500 : millis < 20_000 ? 0 : millis < 25_000 ? 100 : 400;
        }
        return throughput;
    }

    @Test
    void theRateBeforeAFaultIsTheRateOverTheSecondsBeforeIt() {
        assertThat(run().rateBefore(10_000)).isEqualTo(1_000.0);
    }

    @Test
    void recoveryEndsWhenTheRateIsBackToHalfOfItsRateBefore() {
        Throughput throughput = run();

        // After the fault ends at 20 s: 200/s until 25 s, then 800/s; the first 3 s window at >= 500/s starts at 23.5 s.
        assertThat(throughput.recoveryMillis(20_000, 1_000, Long.MAX_VALUE)).hasValue(3_500);
    }

    @Test
    void recoveryEndsAtTheLatestWhenEveryDocumentIsThrough() {
        Throughput throughput = run();

        assertThat(throughput.recoveryMillis(20_000, 1_000, 5_000)).hasValue(0);
        assertThat(throughput.recoveryMillis(20_000, 100_000, Long.MAX_VALUE)).isEmpty();
    }
}
