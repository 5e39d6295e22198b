package io.volumizer.api.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Failed authentications by client address, and the penalty they earn, decided before a token is read: after
 * {@code penaltyAfter} failures an address is refused for a penalty window, the first one long, each further failure
 * twice as long as the one before, up to the longest; an address whose window ended {@link #FORGOTTEN_AFTER} ago is
 * forgotten. Past its first window an address presents one token at a time, so a guess is never answered sooner than
 * its window allows, whatever the concurrency. At most {@code maxAddresses} are remembered, the least recently
 * failed dropped first (a flood of addresses costs no more memory).
 */
public final class FailedAuthentications {

    /** How long an address is remembered after its last penalty window ended. */
    static final Duration FORGOTTEN_AFTER = Duration.ofMinutes(15);
    /** Addresses remembered at most: some megabytes. */
    public static final int MAX_ADDRESSES = 100_000;

    /** An address inside its penalty window, or whose one token at a time is being read. */
    public static final class PenaltyException extends Exception {
        /** How long until the address may present a token: zero while its one at a time is being read. */
        final Duration left;

        PenaltyException(Duration left) {
            super("too many failed authentications from this address; retry in " + retryAfterSeconds(left) + " s");
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

    /** What is done on an address's turn: reading its token, which fails by throwing. */
    @FunctionalInterface
    public interface Attempt<T, E extends Exception> {
        T run() throws E;
    }

    private static final class Failures {
        int count;
        /** The end of its penalty window; its last failure when it has none. */
        Instant penaltyEnds;
        /** Past its first window: one of its tokens is being read. */
        boolean reading;
    }

    private final int penaltyAfter;
    private final Duration firstPenalty;
    private final Duration maxPenalty;
    private final Clock clock;
    /** In order of last failure: the eldest is dropped past the maximum. Guarded by this. */
    private final Map<String, Failures> byAddress;

    public FailedAuthentications(int penaltyAfter, Duration firstPenalty, Duration maxPenalty, int maxAddresses, Clock clock) {
        this.penaltyAfter = penaltyAfter;
        this.firstPenalty = firstPenalty;
        this.maxPenalty = maxPenalty;
        this.clock = clock;
        this.byAddress = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
                return size() > maxAddresses;
            }
        };
    }

    /**
     * Runs {@code attempt} on {@code address}'s turn, counting it as a failure when it throws.
     *
     * @throws PenaltyException when it is not the address's turn: {@code attempt} did not run
     */
    public <T, E extends Exception> T attempt(String address, Attempt<T, E> attempt) throws E, PenaltyException {
        boolean exclusive = admit(address);
        boolean passed = false;
        try {
            T result = attempt.run();
            passed = true;
            return result;
        } finally {
            end(address, exclusive, passed);
        }
    }

    /** Whether the address's turn excludes its others (it is past its first window); a PenaltyException when not its turn. */
    private synchronized boolean admit(String address) throws PenaltyException {
        Failures failures = byAddress.get(address);
        if (failures == null) {
            return false;
        }
        Instant now = clock.instant();
        if (now.isAfter(failures.penaltyEnds.plus(FORGOTTEN_AFTER))) {
            byAddress.remove(address);
            return false;
        }
        if (now.isBefore(failures.penaltyEnds)) {
            throw new PenaltyException(Duration.between(now, failures.penaltyEnds));
        }
        if (failures.count < penaltyAfter) {
            return false;
        }
        if (failures.reading) {
            throw new PenaltyException(Duration.ZERO);
        }
        failures.reading = true;
        return true;
    }

    private synchronized void end(String address, boolean exclusive, boolean passed) {
        Failures failures = passed ? byAddress.get(address) : byAddress.remove(address);
        if (!passed) {
            Instant now = clock.instant();
            if (failures == null || now.isAfter(failures.penaltyEnds.plus(FORGOTTEN_AFTER))) {
                failures = new Failures();
            }
            failures.count++;
            failures.penaltyEnds = failures.count < penaltyAfter ? now : now.plus(penalty(failures.count - penaltyAfter));
            // Put last: the least recently failed is the eldest.
            byAddress.put(address, failures);
        }
        if (exclusive && failures != null) {
            failures.reading = false;
        }
    }

    /** The window after {@code further} failures past the first penalised one. */
    private Duration penalty(int further) {
        // Doubling stops before it overflows: 2^30 first windows are past any sensible longest one.
        Duration penalty = firstPenalty.multipliedBy(1L << Math.min(further, 30));
        return penalty.compareTo(maxPenalty) > 0 ? maxPenalty : penalty;
    }
}
