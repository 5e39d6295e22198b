package io.volumizer.jobs.reindex.source.reader;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;

import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.options.conventions.MetricNames;

/**
 * The reindex's ranges as metrics: read through ({@code rangesDone}) and failed ({@code rangesFailed}, retried by
 * {@code command retry}). Counted by the fetcher thread, read by the reporter's, hence thread-safe counters. The
 * command's ledger in MongoDB stays the truth across restarts; these count what this run's readers did.
 */
public record RangeCounts(Counter done, Counter failed) {

    public static RangeCounts of(MetricGroup reader) {
        MetricGroup metrics = StageMetrics.of(reader, MetricNames.REINDEX);
        return new RangeCounts(metrics.counter(MetricNames.RANGES_DONE, new ThreadSafeSimpleCounter()),
                metrics.counter(MetricNames.RANGES_FAILED, new ThreadSafeSimpleCounter()));
    }
}
