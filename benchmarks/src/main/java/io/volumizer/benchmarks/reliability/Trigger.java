package io.volumizer.benchmarks.reliability;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * When a fault starts: once a share of the documents is in the store. The wait lasts as long as the count moves; a
 * count that stopped short fails the scenario, rather than starting its fault at a point it never reached.
 */
record Trigger(LongSupplier count, long total, double share) {

    /** How long the count may stand still before the wait fails (a fault before this one is over well within it). */
    static final Duration STALLED_AFTER = Duration.ofMinutes(5);

    /** Waits until the scenario's share of the documents is in. */
    void await() throws InterruptedException {
        await(share);
    }

    /**
     * Waits until {@code share} of the documents is in.
     *
     * @throws IllegalStateException when the count stood still for {@link #STALLED_AFTER} short of it
     */
    void await(double share) throws InterruptedException {
        long last = count.getAsLong();
        long lastChange = System.nanoTime();
        while (last < share * total) {
            Thread.sleep(100);
            long now = count.getAsLong();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange >= STALLED_AFTER.toNanos()) {
                throw new IllegalStateException(String.format(Locale.ROOT, "the store held %,d of the %,d documents "
                        + "a fault waits for, unchanged for %d s", last, (long) Math.ceil(share * total), STALLED_AFTER.toSeconds()));
            }
        }
    }
}
