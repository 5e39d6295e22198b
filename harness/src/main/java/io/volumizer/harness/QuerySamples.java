package io.volumizer.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.volumizer.stores.search.SearchReader;

/**
 * What the rounds measured of one search cell ({@link CustomerQueries}): every query's latency and the time they
 * were measured over, each round warmed up first.
 */
public final class QuerySamples {

    private final List<long[]> latencies = new ArrayList<>();
    private double seconds;
    /** The successful queries' latencies in order; null until asked for after the last round. */
    private long[] sorted;

    /**
     * Warms the cell up, then measures it once more; returns this round's queries per second.
     *
     * @param shardsAsked how many shards each answer must say it asked
     * @param seed        of the users' draws
     */
    public double add(SearchReader reader, String alias, boolean targeted, boolean aggregations, int users,
            String[] customers, SearchLoadOptions load, int shardsAsked, long seed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(users);
        try {
            CustomerQueries.run(pool, reader, alias, targeted, aggregations, users, customers, load.warmup, shardsAsked,
                    seed);
            long started = System.nanoTime();
            List<long[]> perUser = CustomerQueries.run(pool, reader, alias, targeted, aggregations, users, customers,
                    load.measure, shardsAsked, seed);
            double elapsed = (System.nanoTime() - started) / 1e9;
            seconds += elapsed;
            latencies.addAll(perUser);
            sorted = null;
            return perUser.stream().mapToLong(l -> l.length).sum() / elapsed;
        } finally {
            pool.shutdownNow();
        }
    }

    private long[] sorted() {
        if (sorted == null) {
            sorted = latencies.stream().flatMapToLong(Arrays::stream).filter(l -> l >= 0).sorted().toArray();
        }
        return sorted;
    }

    /** Queries answered. */
    public long queries() {
        return sorted().length;
    }

    /** Queries that failed. */
    public long errors() {
        return latencies.stream().flatMapToLong(Arrays::stream).filter(l -> l < 0).count();
    }

    /** Seconds measured, over every round. */
    public double seconds() {
        return seconds;
    }

    public double throughput() {
        return queries() / seconds;
    }

    /** The nearest-rank percentile of the answered queries' latencies, in milliseconds. */
    public double percentile(double percent) {
        return CustomerQueries.percentile(sorted(), percent);
    }
}
