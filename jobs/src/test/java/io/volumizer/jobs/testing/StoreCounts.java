package io.volumizer.jobs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

/** The integration tests' wait for a store's count. */
public final class StoreCounts {

    private StoreCounts() {
    }

    /** Waits until {@code actual} is {@code expected} (or the time is up), then asserts it is exactly that. */
    public static void await(String what, Count actual, long expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long value = actual.get();
        while (value != expected && System.nanoTime() < deadline) {
            Thread.sleep(500);
            value = actual.get();
        }
        assertThat(value).as(what).isEqualTo(expected);
    }

    /** A count read from a store, which may fail as the store's client does. */
    @FunctionalInterface
    public interface Count {
        long get() throws Exception;
    }
}
