package io.volumizer.jobs.internal.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class RateGateTest {

    private long now;
    private final RateGate gate = new RateGate(() -> now);

    /** Records of {@code weight} let through in {@code seconds} of a clock that waits as the gate says. */
    private long passedIn(double seconds, double weight) {
        long end = now + (long) (seconds * 1e9);
        long passed = 0;
        while (now < end) {
            long wait = gate.waitNanos(weight);
            if (wait == 0) {
                gate.took(weight);
                passed++;
            } else {
                now += Math.min(wait, end - now);
            }
        }
        return passed;
    }

    @Test
    void eachSecondPassesTheLimitAndANewLimitAppliesAtOnce() {
        gate.set(100, false);
        passedIn(1, 1); // the first second may start with a tenth of a second's burst
        for (int second = 0; second < 5; second++) {
            assertThat(passedIn(1, 1)).isBetween(99L, 101L);
        }
        gate.set(1000, false);
        assertThat(passedIn(1, 1)).isBetween(999L, 1001L);
        gate.set(10, false);
        assertThat(passedIn(1, 1)).isBetween(9L, 11L);
    }

    @Test
    void aRecordOfManyDocumentsWaitsForAllOfThem() {
        gate.set(120, false);
        passedIn(1, 60);
        assertThat(passedIn(10, 60)).as("a customer of 60 documents every half second").isBetween(19L, 21L);
    }

    @Test
    void pausedNothingPassesUntilResumedAtTheLimitSet() {
        gate.set(100, true);
        assertThat(gate.waitNanos(1)).isEqualTo(RateGate.PAUSED);
        now += TimeUnit.MINUTES.toNanos(10);
        assertThat(gate.waitNanos(1)).as("still paused, whatever the time").isEqualTo(RateGate.PAUSED);

        gate.set(100, false);
        assertThat(passedIn(1, 1)).as("no credit saved up while paused").isBetween(99L, 111L);
    }

    @Test
    void withoutALimitEverythingPasses() {
        gate.set(0, false);
        assertThat(gate.waitNanos(1_000_000)).isZero();
    }
}
