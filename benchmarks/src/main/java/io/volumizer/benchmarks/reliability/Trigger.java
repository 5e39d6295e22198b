package io.volumizer.benchmarks.reliability;

import java.time.Duration;
import java.util.function.LongSupplier;

/** When a fault starts: once a share of the documents is in the store. */
final class Trigger {

    private final LongSupplier count;
    private final long total;
    private final double share;

    Trigger(LongSupplier count, long total, double share) {
        this.count = count;
        this.total = total;
        this.share = share;
    }

    /** Waits until the scenario's share of the documents is in. */
    void await() throws InterruptedException {
        await(share);
    }

    /** Waits until {@code share} of the documents is in (or ten minutes passed). */
    void await(double share) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (count.getAsLong() < share * total && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }
}
