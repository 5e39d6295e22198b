package io.volumizer.jobs.internal.throttle;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One subtask's share of a throttle: a token bucket of documents a second, or a pause. It holds at most a tenth of
 * a second of documents (or one record's worth), so that a second's rate keeps within a few percent of the limit, and
 * a new limit applies from its first record on.
 */
final class RateGate {

    /** Returned by {@link #waitNanos} while paused. */
    static final long PAUSED = Long.MAX_VALUE;
    private static final double BURST_SECONDS = 0.1;

    private final LongSupplier nanoTime;
    private double docsPerSecond;
    private boolean paused;
    private double tokens;
    private long lastRefill;
    private long version;

    RateGate(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.lastRefill = nanoTime.getAsLong();
    }

    /** This subtask's limit ({@code 0}: none) and whether it is paused. */
    synchronized void set(double docsPerSecond, boolean paused) {
        refill(1);
        this.docsPerSecond = docsPerSecond;
        this.paused = paused;
        tokens = Math.min(tokens, burst(1));
        version++;
    }

    /** How many times the setting changed: a waiter that read it before an answer sees whether it is stale. */
    synchronized long version() {
        return version;
    }

    /**
     * How long to wait before a record of {@code weight} documents may pass: 0 now, {@link #PAUSED} while paused (until
     * {@link #set} is called again).
     */
    synchronized long waitNanos(double weight) {
        if (paused) {
            return PAUSED;
        }
        if (docsPerSecond <= 0) {
            return 0;
        }
        refill(weight);
        return tokens >= weight ? 0 : (long) Math.ceil((weight - tokens) / docsPerSecond * TimeUnit.SECONDS.toNanos(1));
    }

    /** Records of {@code documents} documents in all passed. */
    synchronized void took(double documents) {
        if (docsPerSecond > 0) {
            tokens -= documents;
        }
    }

    private void refill(double weight) {
        long now = nanoTime.getAsLong();
        if (docsPerSecond > 0) {
            tokens = Math.min(burst(weight), tokens + (now - lastRefill) / 1e9 * docsPerSecond);
        }
        lastRefill = now;
    }

    private double burst(double weight) {
        return Math.max(weight, docsPerSecond * BURST_SECONDS);
    }
}
