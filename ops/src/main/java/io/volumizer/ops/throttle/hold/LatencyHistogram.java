package io.volumizer.ops.throttle.hold;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.ApiRouteGroup;
import io.volumizer.options.conventions.MetricNames;

/**
 * The API's request latencies of one route group, as its Prometheus histogram holds them: cumulative counts by
 * upper bound in seconds ({@code le}), summed over the group's routes, methods and statuses. Two scrapes give the
 * requests between them ({@link #since}), and their quantiles as Prometheus' {@code histogram_quantile} computes them.
 */
public record LatencyHistogram(NavigableMap<Double, Double> cumulative) {

    private static final String UPPER_BOUND_LABEL = "le";

    /** The group's histogram in {@code samples} (a scrape of the API's {@code /metrics}). */
    public static LatencyHistogram of(List<PrometheusScrape.Sample> samples, ApiRouteGroup group) {
        TreeMap<Double, Double> counts = new TreeMap<>();
        String buckets = MetricNames.apiRequestBuckets();
        for (PrometheusScrape.Sample sample : samples) {
            Map<String, String> labels = sample.labels();
            if (sample.name().equals(buckets) && group.matches(labels.getOrDefault(MetricNames.METHOD_LABEL, ""),
                    labels.getOrDefault(MetricNames.ROUTE_LABEL, ""))) {
                String le = labels.get(UPPER_BOUND_LABEL);
                counts.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), sample.value(), Double::sum);
            }
        }
        return new LatencyHistogram(counts);
    }

    /** How many requests it holds. */
    public long count() {
        return cumulative.isEmpty() ? 0 : Math.round(cumulative.lastEntry().getValue());
    }

    /**
     * The requests recorded since {@code earlier}, a previous scrape; empty when a count went down (the API
     * restarted). A route first requested after {@code earlier} has no series there: all its requests are new.
     */
    public Optional<LatencyHistogram> since(LatencyHistogram earlier) {
        TreeMap<Double, Double> counts = new TreeMap<>();
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            double delta = bucket.getValue() - earlier.cumulative.getOrDefault(bucket.getKey(), 0.0);
            if (delta < 0) {
                return Optional.empty();
            }
            counts.put(bucket.getKey(), delta);
        }
        return Optional.of(new LatencyHistogram(counts));
    }

    /**
     * The {@code q}-quantile in seconds, interpolated linearly inside its bucket; the largest finite bound when it
     * falls beyond it; NaN without requests.
     */
    public double quantile(double q) {
        double total = count();
        if (total <= 0) {
            return Double.NaN;
        }
        double rank = q * total;
        double lowerBound = 0;
        double below = 0;
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return lowerBound;
                }
                double inBucket = bucket.getValue() - below;
                return inBucket <= 0 ? bucket.getKey()
                        : lowerBound + (bucket.getKey() - lowerBound) * (rank - below) / inBucket;
            }
            lowerBound = bucket.getKey();
            below = bucket.getValue();
        }
        return lowerBound;
    }
}
