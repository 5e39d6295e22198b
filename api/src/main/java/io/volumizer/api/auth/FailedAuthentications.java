package io.volumizer.api.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Failed authentications by what failed (a client address, a presented credential) and the penalty window each
 * earns: after {@code penaltyAfter} failures the first window, each further failure twice as long as the one before,
 * up to the longest; one whose window ended {@link #FORGOTTEN_AFTER} ago is forgotten. A window refuses failures only:
 * {@link Authentication} still reads and serves a valid token whatever its address did. At most {@code maxKeys} are
 * remembered, the least recently failed dropped first (a flood of addresses or tokens costs no more memory).
 */
public final class FailedAuthentications {

    /** How long a key is remembered after its last penalty window ended. */
    static final Duration FORGOTTEN_AFTER = Duration.ofMinutes(15);
    /** Keys remembered at most: some megabytes. */
    public static final int MAX_KEYS = 100_000;

    /** A failure inside its key's penalty window: answered 429 with Retry-After. */
    public static final class PenaltyException extends Exception {
        private static final long serialVersionUID = 1L;

        /** How long until the window ends. */
        final Duration left;

        PenaltyException(Duration left) {
            super("too many failed authentications; retry in " + retryAfterSeconds(left) + " s with a valid token");
            this.left = left;
        }

        /** {@link #left} in whole seconds, rounded up, at least 1: what Retry-After says. */
        long retryAfterSeconds() {
            return retryAfterSeconds(left);
        }

        private static long retryAfterSeconds(Duration left) {
            return Math.max(1, left.plusMillis(999).toSeconds());
        }
    }

    private static final class Failures {
        int count;
        /** The end of its penalty window; its last failure when it has none. */
        Instant penaltyEnds;
    }

    private final int penaltyAfter;
    private final Duration firstPenalty;
    private final Duration maxPenalty;
    private final Clock clock;
    /** In order of last failure: the eldest is dropped past the maximum. Guarded by this. */
    private final Map<String, Failures> byKey;

    public FailedAuthentications(int penaltyAfter, Duration firstPenalty, Duration maxPenalty, int maxKeys, Clock clock) {
        this.penaltyAfter = penaltyAfter;
        this.firstPenalty = firstPenalty;
        this.maxPenalty = maxPenalty;
        this.clock = clock;
        this.byKey = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
                return size() > maxKeys;
            }
        };
    }

    /** What is left of {@code key}'s penalty window, or empty outside one. */
    public synchronized Optional<Duration> penalty(String key) {
        Failures failures = byKey.get(key);
        if (failures == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (now.isAfter(failures.penaltyEnds.plus(FORGOTTEN_AFTER))) {
            byKey.remove(key);
            return Optional.empty();
        }
        return now.isBefore(failures.penaltyEnds) ? Optional.of(Duration.between(now, failures.penaltyEnds))
                : Optional.empty();
    }

    /** Counts a failure of {@code key}, which opens or lengthens its window past {@code penaltyAfter}. */
    public synchronized void failed(String key) {
        Instant now = clock.instant();
        Failures failures = byKey.remove(key);
        if (failures == null || now.isAfter(failures.penaltyEnds.plus(FORGOTTEN_AFTER))) {
            failures = new Failures();
        }
        failures.count++;
        failures.penaltyEnds = failures.count < penaltyAfter ? now : now.plus(penalty(failures.count - penaltyAfter));
        // Put last: the least recently failed is the eldest.
        byKey.put(key, failures);
    }

    /** The window after {@code further} failures past the first penalised one. */
    private Duration penalty(int further) {
        // Doubling stops before it overflows: 2^30 first windows are past any sensible longest one.
        Duration penalty = firstPenalty.multipliedBy(1L << Math.min(further, 30));
        return penalty.compareTo(maxPenalty) > 0 ? maxPenalty : penalty;
    }
}
