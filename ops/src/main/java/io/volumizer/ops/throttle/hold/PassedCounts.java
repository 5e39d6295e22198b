package io.volumizer.ops.throttle.hold;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.MetricNames;

/**
 * What throttled jobs let through so far, per series (a job's subtask attempt on a TaskManager), from their
 * TaskManagers' samples. Two readings give the documents between them over the series both hold: a TaskManager
 * that did not answer one of them, or a subtask restarted since (its counter began again), adds nothing rather
 * than everything.
 */
public record PassedCounts(Map<String, Double> bySeries) {

    /** The counts of the jobs {@code jobIds} (by id: the reporter makes every '-' and ' ' of a job's name '_'). */
    public static PassedCounts of(List<PrometheusScrape.Sample> samples, Set<String> jobIds) {
        String passed = MetricNames.prometheusName(MetricNames.THROTTLE_PASSED);
        Map<String, Double> series = new TreeMap<>();
        for (PrometheusScrape.Sample sample : samples) {
            if (sample.name().equals(passed) && jobIds.contains(sample.labels().get(MetricNames.JOB_ID_LABEL))) {
                series.merge(sample.labels().toString(), sample.value(), Double::sum);
            }
        }
        return new PassedCounts(series);
    }

    /** Documents let through since {@code earlier}; NaN when the two share no series though either has some. */
    public double since(PassedCounts earlier) {
        double documents = 0;
        boolean shared = false;
        for (Map.Entry<String, Double> series : bySeries.entrySet()) {
            Double before = earlier.bySeries.get(series.getKey());
            if (before != null) {
                shared = true;
                documents += Math.max(0, series.getValue() - before);
            }
        }
        return shared || bySeries.isEmpty() && earlier.bySeries.isEmpty() ? documents : Double.NaN;
    }
}
