package io.volumizer.harness;

import java.time.Duration;
import java.util.function.LongSupplier;


/**
 * When a fault starts: once a share of the documents is in the store. The wait lasts as long as the count moves; a
 * count that stopped short fails the scenario, rather than starting its fault at a point it never reached.
 */
public record Trigger(LongSupplier count, long total, double share) {

    /** How long the count may stand still before the wait fails (a fault before this one is over well within it). */
    public static final Duration STALLED_AFTER = Duration.ofMinutes(5);
    private static final Await WAIT = Await.stalledFor(STALLED_AFTER);

    /** Waits until the scenario's share of the documents is in. */
    public void await() throws Exception {
        await(share);
    }

    /**
     * Waits until {@code share} of the documents is in.
     *
     * @throws IllegalStateException when the count stood still for {@link #STALLED_AFTER} short of it
     */
    public void await(double share) throws Exception {
        WAIT.until("the documents a fault waits for", count::getAsLong, (long) Math.ceil(share * total));
    }
}
