package io.volumizer.api.internal;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.javalin.http.Context;
import io.javalin.http.Handler;

/**
 * Bounded concurrency per class of request. A request waits a short, bounded time for a place in its class, then
 * is refused at once with 503 and Retry-After: under a burst the API keeps serving what it admits at its usual
 * latency instead of queueing everyone until all time out. One caller holds at most its share of a class's places
 * at once (a 429 past it), so that no single user, however slow its requests or its bodies, takes them all.
 * Readiness reports a class that refused lately, so that a load balancer sends traffic elsewhere.
 */
public final class Admission {

    /** Classes of requests, each with places of its own: a burst of one does not starve the others. */
    public enum RequestClass { reads, search, writes, blobs }

    /** How long after its last refusal a class still counts as overloaded for readiness. */
    private static final long OVERLOAD_MEMORY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Map<RequestClass, Semaphore> places = new EnumMap<>(RequestClass.class);
    private final Map<RequestClass, Integer> limits;
    private final Map<RequestClass, LongAdder> refused = new EnumMap<>(RequestClass.class);
    private final Map<RequestClass, AtomicLong> lastRefusal = new EnumMap<>(RequestClass.class);
    private final long waitNanos;
    /** Places held now, by class and caller; a caller holding none has no entry. */
    private final Map<String, Integer> heldByCaller = new HashMap<>();

    private final Function<Context, String> callerOf;

    private final int callerSharePercent;

    /**
     * @param callerSharePercent how much of a class's places one caller may hold at once, in percent (at least one)
     * @param callerOf           who asks, by name: whose share of the places a request takes
     */
    public Admission(Map<RequestClass, Integer> limits, Duration wait, int callerSharePercent,
            Function<Context, String> callerOf) {
        this.callerSharePercent = callerSharePercent;
        this.callerOf = callerOf;
        this.limits = new EnumMap<>(limits);
        this.waitNanos = wait.toNanos();
        long longAgo = System.nanoTime() - 2 * OVERLOAD_MEMORY_NANOS;
        for (RequestClass requestClass : RequestClass.values()) {
            places.put(requestClass, new Semaphore(limits.get(requestClass)));
            refused.put(requestClass, new LongAdder());
            lastRefusal.put(requestClass, new AtomicLong(longAgo));
        }
    }

    /**
     * {@code handler}, run only once it has a place in its class; else a 503 ({@link OverloadedException}), or a 429
     * when its caller already holds its share of them ({@link CallerShareException}).
     */
    public Handler guard(RequestClass requestClass, Handler handler) {
        Semaphore semaphore = places.get(requestClass);
        int share = Math.max(1, limits.get(requestClass) * callerSharePercent / 100);
        return ctx -> {
            String caller = requestClass + " " + callerOf.apply(ctx);
            if (!takeShare(caller, share)) {
                throw new CallerShareException(requestClass, share);
            }
            try {
                if (!semaphore.tryAcquire(waitNanos, TimeUnit.NANOSECONDS)) {
                    refused.get(requestClass).increment();
                    lastRefusal.get(requestClass).set(System.nanoTime());
                    throw new OverloadedException(requestClass, limits.get(requestClass));
                }
                try {
                    handler.handle(ctx);
                } finally {
                    semaphore.release();
                }
            } finally {
                releaseShare(caller);
            }
        };
    }

    private synchronized boolean takeShare(String caller, int share) {
        int held = heldByCaller.getOrDefault(caller, 0);
        if (held >= share) {
            return false;
        }
        heldByCaller.put(caller, held + 1);
        return true;
    }

    private synchronized void releaseShare(String caller) {
        heldByCaller.computeIfPresent(caller, (key, held) -> held == 1 ? null : held - 1);
    }

    /** Whether any class refused a request within the last second. */
    public boolean overloaded() {
        long now = System.nanoTime();
        return lastRefusal.values().stream().anyMatch(last -> now - last.get() < OVERLOAD_MEMORY_NANOS);
    }

    /** Per class: requests in flight, the limit, and how many were refused since the start. */
    public Map<String, Map<String, Long>> status() {
        Map<String, Map<String, Long>> status = new LinkedHashMap<>();
        for (RequestClass requestClass : RequestClass.values()) {
            status.put(requestClass.name(), Map.of("inFlight", inFlight(requestClass),
                    "limit", (long) limits.get(requestClass), "refused", refused(requestClass)));
        }
        return status;
    }

    /** Requests of {@code requestClass} being served now. */
    public long inFlight(RequestClass requestClass) {
        return limits.get(requestClass) - places.get(requestClass).availablePermits();
    }

    /** Requests of {@code requestClass} refused since the start. */
    public long refused(RequestClass requestClass) {
        return refused.get(requestClass).sum();
    }

    /** A request refused because its caller holds its share of its class's places. */
    public static final class CallerShareException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        CallerShareException(RequestClass requestClass, int share) {
            super("you have " + share + " " + requestClass + " requests in flight, as many as one caller may: wait for "
                    + "one to end");
        }
    }

    /** A request refused for want of a place in its class. */
    public static final class OverloadedException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        OverloadedException(RequestClass requestClass, int limit) {
            super("the API is serving as many " + requestClass + " requests as it takes (" + limit + "); retry shortly");
        }
    }
}
