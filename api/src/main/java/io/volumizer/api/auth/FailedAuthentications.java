package io.volumizer.api.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed authentications by client address, and how long each new one waits before its answer: the first waits the
 * first delay, each further one twice as long as the one before, up to the longest delay; an address that failed
 * nothing for {@link #FORGOTTEN_AFTER} starts again from the first delay. So a token cannot be guessed at full speed.
 */
public final class FailedAuthentications {

    /** How long an address's failures are remembered after its last one. */
    static final Duration FORGOTTEN_AFTER = Duration.ofMinutes(15);
    /** Addresses remembered at most; past it the forgotten ones are dropped (a flood of addresses stays bounded). */
    private static final int MAX_ADDRESSES = 100_000;

    private record Failures(int count, Instant last) {
    }

    private final Duration firstDelay;
    private final Duration maxDelay;
    private final Clock clock;
    private final Map<String, Failures> byAddress = new ConcurrentHashMap<>();

    public FailedAuthentications(Duration firstDelay, Duration maxDelay, Clock clock) {
        this.firstDelay = firstDelay;
        this.maxDelay = maxDelay;
        this.clock = clock;
    }

    /** Counts a failure of {@code address}; returns how long its answer waits. */
    public Duration failed(String address) {
        Instant now = clock.instant();
        if (byAddress.size() >= MAX_ADDRESSES) {
            byAddress.values().removeIf(failures -> forgotten(failures, now));
        }
        Failures failures = byAddress.compute(address, (key, before) ->
                new Failures(before == null || forgotten(before, now) ? 1 : before.count + 1, now));
        return delay(failures.count);
    }

    private Duration delay(int failures) {
        // Doubling stops before it overflows: 2^30 first delays are past any sensible longest delay.
        Duration delay = firstDelay.multipliedBy(1L << Math.min(failures - 1, 30));
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }

    private static boolean forgotten(Failures failures, Instant now) {
        return failures.last.plus(FORGOTTEN_AFTER).isBefore(now);
    }
}
