package io.volumizer.stores.search;

import java.time.Duration;

/**
 * How a process uses its connections to the search engine (not options: the API sets its own from its timeouts, a
 * benchmark its pool).
 *
 * @param connectTimeout how long a connection may take, or null for the client's default
 * @param socketTimeout  how long an answer is awaited, or null for the client's default
 * @param poolTimeout    how long a request waits for a pooled connection, or null for the client's default
 * @param maxConnections connections at most, in all and to each node; 0 for the client's default
 * @param timer          told every request's latency, or null
 */
public record SearchTuning(Duration connectTimeout, Duration socketTimeout, Duration poolTimeout, int maxConnections,
        RequestTimer timer) {

    public static final SearchTuning DEFAULT = new SearchTuning(null, null, null, 0, null);

    public SearchTuning withMaxConnections(int maxConnections) {
        return new SearchTuning(connectTimeout, socketTimeout, poolTimeout, maxConnections, timer);
    }

    /** What a request took, from sending it to its answer. */
    @FunctionalInterface
    public interface RequestTimer {
        void record(long nanos);
    }
}
