package io.volumizer.jobs.reindex;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;

import io.volumizer.jobs.internal.StageMetrics;

/**
 * The reindex's ranges as metrics: read through ({@code rangesDone}) and failed ({@code rangesFailed}, retried by
 * {@code command retry}). Counted by the fetcher thread, read by the reporter's, hence thread-safe counters. The
 * command's ledger in MongoDB stays the truth across restarts; these count what this run's readers did.
 */
record RangeCounts(Counter done, Counter failed) {

    static RangeCounts of(MetricGroup reader) {
        MetricGroup metrics = StageMetrics.of(reader, FinishReindex.STAGE);
        return new RangeCounts(metrics.counter("rangesDone", new ThreadSafeSimpleCounter()),
                metrics.counter("rangesFailed", new ThreadSafeSimpleCounter()));
    }
}
