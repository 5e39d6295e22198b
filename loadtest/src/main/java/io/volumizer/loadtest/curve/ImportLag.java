package io.volumizer.loadtest.curve;

import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.MetricNames;

/**
 * The records the import's sources have not read yet, summed over its subtasks: 0 means the import caught up with the
 * backlog, so a pass that sees it measured a rate the missing input set, not its throttle.
 */
final class ImportLag {

    private ImportLag() {
    }

    /** The jobs' pending records; empty when no TaskManager reported any (a source not assigned yet, a scrape lost). */
    static OptionalDouble of(List<PrometheusScrape.Sample> samples, Set<String> jobIds) {
        double pending = 0;
        boolean reported = false;
        for (PrometheusScrape.Sample sample : samples) {
            if (sample.name().equals(MetricNames.SOURCE_PENDING_RECORDS) && jobIds.contains(sample.labels().get("job_id"))
                    && !Double.isNaN(sample.value())) {
                pending += sample.value();
                reported = true;
            }
        }
        return reported ? OptionalDouble.of(pending) : OptionalDouble.empty();
    }
}
