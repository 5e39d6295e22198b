package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import java.time.Duration;

import picocli.CommandLine.Option;

/** How the import stage batches and waits for parents (a mixin of the import and import-and-index jobs). */
public final class ImportSettings {

    @Option(names = "--import-batch-size", defaultValue = "1000", description = "Documents per MongoDB bulk write (default: ${DEFAULT-VALUE}).")
    public int batchSize;

    @Option(names = "--import-flush-interval", defaultValue = "PT0.5S", description = "Longest a document waits in a batch (default: ${DEFAULT-VALUE}).")
    public Duration flushInterval;

    @Option(names = "--parent-retry-interval", defaultValue = "PT0.5S", description = "How long a child whose parent is not cached waits before the parent is looked up, and the first interval between lookups (default: ${DEFAULT-VALUE}).")
    public Duration parentRetryInterval;

    @Option(names = "--parent-check-interval", defaultValue = "PT0.05S", description = "How often a parked child "
            + "checks, without reading MongoDB, whether the job has meanwhile resolved its parent (with "
            + "--resolved-folder-cache) (default: ${DEFAULT-VALUE}).")
    public Duration parentCheckInterval;

    @Option(names = "--parent-retry-max-interval", defaultValue = "PT8S", description = "Longest interval between "
            + "lookups of a missing parent; the interval doubles from --parent-retry-interval (default: ${DEFAULT-VALUE}).")
    public Duration parentRetryMaxInterval;

    @Option(names = "--parent-wait-margin", defaultValue = "PT30S", description = "How much later, by the producers' "
            + "clocks, a parent may be written than its child (clock skew, sends in flight): a child whose parent is "
            + "missing waits until every partition of the documents topic has been read past its time plus this, "
            + "however long the import takes to get there (default: ${DEFAULT-VALUE}).")
    public Duration parentWaitMargin;

    @Option(names = "--parent-wait-checkpoints", defaultValue = "5", description = "Checkpoints that must complete, "
            + "once a child's time has been read past, before it is dead-lettered: each writes the parents resolved "
            + "before it, one level of a chain of folders that waited too; 5 covers the bank's deepest chain, root to "
            + "statement, across TaskManagers (default: ${DEFAULT-VALUE}).")
    public int parentWaitCheckpoints;

    @Option(names = "--parent-wait-min", defaultValue = "PT1M", description = "The least time a child waits, on its "
            + "subtask's clock since it was parked or the subtask (re)started, before it may be dead-lettered: a floor "
            + "under the progress rule, whose checkpoints may come a few hundred milliseconds apart; never a limit, as a "
            + "stall still holds the progress back (default: ${DEFAULT-VALUE}).")
    public Duration parentWaitMin;

    @Option(names = "--progress-mark-interval", defaultValue = "PT1S", description = "How often the import writes a "
            + "progress mark to every partition of the documents topic, so that its event time advances where no "
            + "document comes (default: ${DEFAULT-VALUE}).")
    public Duration progressMarkInterval;

    @Option(names = "--parent-cache-ttl", defaultValue = "PT1H", description = "How long a parent stays in the cache unused (default: ${DEFAULT-VALUE}).")
    public Duration parentCacheTtl;

    @Option(names = "--resolved-folder-cache", defaultValue = "10000", description = "Folders the import subtasks "
            + "of a TaskManager remember after resolving them, shared: their children, in whichever of those subtasks, "
            + "need no MongoDB lookup and no wait; least recently used out, 0 turns it off (default: ${DEFAULT-VALUE}).")
    public int resolvedFolderCache;

    /** Read through the step's options, which know the default: --topics-of's group. */
    @Option(names = "--group-id", description = "Kafka consumer group reading the documents topic (default: "
            + "--topics-of's, volumizer-<repository>-import).")
    String groupId;

    /** How documents are spread over the parent-cache subtasks. */
    public enum PartitionBy { parent, document }

    @Option(names = "--partition-by", defaultValue = "parent", description = "parent: children of a parent meet in "
            + "one subtask and share its cache entry; document: spread by id (a benchmark baseline) (default: ${DEFAULT-VALUE}).")
    public PartitionBy partitionBy;

    @Option(names = "--inject-failure-at", defaultValue = "0", description = "Chaos testing: fail the import once, "
            + "on its first attempt, at this record of a subtask; 0 is off (default: ${DEFAULT-VALUE}).")
    public long injectFailureAt;

    public void validate() {
        require(resolvedFolderCache >= 0, "--resolved-folder-cache must be 0 (off) or positive, was " + resolvedFolderCache);
        require(injectFailureAt >= 0, "--inject-failure-at must be 0 (off) or positive, was " + injectFailureAt);
        require(batchSize >= 1, "--import-batch-size must be at least 1, was " + batchSize);
        require(flushInterval.toMillis() >= 1, "--import-flush-interval must be positive, was " + flushInterval);
        require(parentRetryInterval.toMillis() >= 1, "--parent-retry-interval must be positive, was " + parentRetryInterval);
        require(parentCheckInterval.toMillis() >= 1 && parentCheckInterval.compareTo(parentRetryInterval) <= 0,
                "--parent-check-interval must be positive and at most --parent-retry-interval, was " + parentCheckInterval);
        require(parentRetryMaxInterval.compareTo(parentRetryInterval) >= 0,
                "--parent-retry-max-interval must be at least --parent-retry-interval");
        require(!parentWaitMargin.isNegative(), "--parent-wait-margin must not be negative, was " + parentWaitMargin);
        require(!parentWaitMin.isNegative(), "--parent-wait-min must not be negative, was " + parentWaitMin);
        require(parentWaitCheckpoints >= 1, "--parent-wait-checkpoints must be at least 1, was " + parentWaitCheckpoints);
        require(progressMarkInterval.toMillis() >= 100, "--progress-mark-interval must be at least 100 ms, was "
                + progressMarkInterval);
        require(parentCacheTtl.toMillis() >= 1000, "--parent-cache-ttl must be at least a second, was " + parentCacheTtl);
    }
}
