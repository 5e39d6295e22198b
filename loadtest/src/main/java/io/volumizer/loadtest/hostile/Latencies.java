package io.volumizer.loadtest.hostile;

import java.util.Arrays;

/** Requests' latencies (microseconds) and the wall time they took: throughput, mean and percentiles. */
public record Latencies(long[] micros, long wallNanos) {

    /** Several measures as one: their latencies together, their wall times added. */
    public static Latencies of(Iterable<Latencies> measures) {
        long[] all = new long[0];
        long wall = 0;
        for (Latencies measure : measures) {
            long[] joined = Arrays.copyOf(all, all.length + measure.micros.length);
            System.arraycopy(measure.micros, 0, joined, all.length, measure.micros.length);
            all = joined;
            wall += measure.wallNanos;
        }
        return new Latencies(all, wall);
    }

    public int count() {
        return micros.length;
    }

    public double perSecond() {
        return wallNanos == 0 ? 0 : micros.length * 1e9 / wallNanos;
    }

    public double meanMillis() {
        return Arrays.stream(micros).average().orElse(0) / 1000.0;
    }

    /** The nearest-rank percentile, in milliseconds. */
    public double percentileMillis(double percentile) {
        if (micros.length == 0) {
            return 0;
        }
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1] / 1000.0;
    }
}
