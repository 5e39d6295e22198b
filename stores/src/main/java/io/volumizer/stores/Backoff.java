package io.volumizer.stores;

import java.io.Serializable;
import java.time.Duration;

/**
 * Exponential backoff for overloaded or briefly unreachable stores (HTTP 429, rejected executions, connection
 * errors): {@code initial}, doubled per attempt up to {@code max}, for at most {@code maxRetries} retries.
 */
public record Backoff(Duration initial, Duration max, int maxRetries) implements Serializable {

    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), 8);

    public Backoff {
        if (initial.isNegative() || max.compareTo(initial) < 0 || maxRetries < 0) {
            throw new IllegalArgumentException("backoff needs 0 <= initial <= max and retries >= 0");
        }
    }

    /** The pause before retry {@code attempt} (1-based). */
    public Duration delay(int attempt) {
        long millis = initial.toMillis() << Math.min(attempt - 1, 20);
        return Duration.ofMillis(Math.min(millis, max.toMillis()));
    }

    public void sleep(int attempt) {
        try {
            Thread.sleep(delay(attempt).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }
}
