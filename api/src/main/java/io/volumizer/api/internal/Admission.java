package io.volumizer.api.internal;

import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.javalin.http.Handler;

/**
 * Bounded concurrency per class of request. A request waits a short, bounded time for a place in its class, then
 * is refused at once with 503 and Retry-After: under a burst the API keeps serving what it admits at its usual
 * latency instead of queueing everyone until all time out. Readiness reports a class that refused lately, so that a
 * load balancer sends traffic elsewhere.
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

    public Admission(Map<RequestClass, Integer> limits, Duration wait) {
        this.limits = new EnumMap<>(limits);
        this.waitNanos = wait.toNanos();
        long longAgo = System.nanoTime() - 2 * OVERLOAD_MEMORY_NANOS;
        for (RequestClass requestClass : RequestClass.values()) {
            places.put(requestClass, new Semaphore(limits.get(requestClass)));
            refused.put(requestClass, new LongAdder());
            lastRefusal.put(requestClass, new AtomicLong(longAgo));
        }
    }

    /** {@code handler}, run only once it has a place in its class; else a 503 ({@link OverloadedException}). */
    public Handler guard(RequestClass requestClass, Handler handler) {
        Semaphore semaphore = places.get(requestClass);
        return ctx -> {
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
        };
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

    /** A request refused for want of a place in its class. */
    public static final class OverloadedException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        OverloadedException(RequestClass requestClass, int limit) {
            super("the API is serving as many " + requestClass + " requests as it takes (" + limit + "); retry shortly");
        }
    }
}
