package io.volumizer.jobs.imports;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.options.conventions.MetricNames;

/**
 * How the import found its documents' parents, as the import stage's counters. Hit ratio =
 * 1 - parentCacheMisses / resolvedWithParent: a miss is the first MongoDB lookup for children that parked, whatever
 * number of waiting siblings it releases; the lookups again while they wait for a parent not written yet are
 * {@code parentLookupRetries} (their number follows the wall-clock time children wait, so it grows when the import
 * runs slower, while the cache's hits do not change).
 */
final class ParentLookupMetrics {

    private final Counter hits;
    private final Counter folderHits;
    private final Counter misses;
    private final Counter retries;
    private final Counter resolved;
    private final Counter parked;

    ParentLookupMetrics(MetricGroup operator) {
        MetricGroup stage = StageMetrics.of(operator, MetricNames.IMPORT);
        hits = stage.counter(MetricNames.PARENT_CACHE_HITS);
        folderHits = stage.counter(MetricNames.PARENTS_FROM_RESOLVED_FOLDERS);
        misses = stage.counter(MetricNames.PARENT_CACHE_MISSES);
        retries = stage.counter(MetricNames.PARENT_LOOKUP_RETRIES);
        resolved = stage.counter(MetricNames.RESOLVED_WITH_PARENT);
        parked = stage.counter(MetricNames.PARKED_CHILDREN);
    }

    /** A document whose parent was in the cache. */
    void hit() {
        hits.inc();
        resolved.inc();
    }

    /** A cache entry filled from the folders the job resolved. */
    void folderHit() {
        folderHits.inc();
    }

    /** A lookup of a parent in MongoDB: the first for the children parked, or one again. */
    void lookup(boolean again) {
        (again ? retries : misses).inc();
    }

    /** A parked child released by its parent. */
    void resolvedAfterWait() {
        resolved.inc();
    }

    void parked() {
        parked.inc();
    }

    /** Children that left the parking (released or dead-lettered). */
    void unparked(long count) {
        parked.dec(count);
    }
}
