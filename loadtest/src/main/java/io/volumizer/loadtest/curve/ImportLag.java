package io.volumizer.loadtest.curve;

import java.util.List;
import java.util.Set;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.MetricNames;

/**
 * The records the import's sources have not read yet, summed over the subtasks that reported them: 0 from every
 * subtask means the import caught up with the backlog, so a pass that sees it measured a rate the missing input
 * set, not its throttle.
 *
 * @param pending the records not read yet
 * @param series  how many subtasks reported them (a TaskManager that did not answer its scrape reports none)
 */
record ImportLag(double pending, int series) {

    /** The jobs' pending records, from as many subtasks as reported a number. */
    static ImportLag of(List<PrometheusScrape.Sample> samples, Set<String> jobIds) {
        double pending = 0;
        int series = 0;
        for (PrometheusScrape.Sample sample : samples) {
            if (sample.name().equals(MetricNames.SOURCE_PENDING_RECORDS)
                    && jobIds.contains(sample.labels().get(MetricNames.JOB_ID_LABEL)) && !Double.isNaN(sample.value())) {
                pending += sample.value();
                series++;
            }
        }
        return new ImportLag(pending, series);
    }

    /**
     * Whether the import had read everything, as far as {@code seriesSeen} subtasks tell: some reported, fewer than
     * that number did not answer (a lag of 0 from some subtasks says nothing of the others).
     */
    boolean caughtUp(int seriesSeen) {
        return series > 0 && series >= seriesSeen && pending == 0;
    }
}
