package io.volumizer.benchmarks.internal;

import java.time.Duration;
import java.util.Locale;

/**
 * Waits until a store's count reaches a target for as long as the count moves: a run may take as long as it takes,
 * but a count that stood still for {@code stalledAfter} short of its target fails the wait, rather than a run
 * going on from a point it never reached or waiting forever for documents that cannot come.
 */
public record CountWait(Duration interval, Duration stalledAfter) {

    /** A count read from a store. */
    public interface Count {
        long get() throws Exception;
    }

    /** @throws IllegalStateException naming {@code what} when the count stood still short of {@code target} */
    public void until(String what, Count count, long target) throws Exception {
        long last = count.get();
        long lastChange = System.nanoTime();
        while (last < target) {
            Thread.sleep(interval.toMillis());
            long now = count.get();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange >= stalledAfter.toNanos()) {
                throw new IllegalStateException(String.format(Locale.ROOT, "%s: %,d of %,d, unchanged for %d s", what,
                        last, target, stalledAfter.toSeconds()));
            }
        }
    }
}
