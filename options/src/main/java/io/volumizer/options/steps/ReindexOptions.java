package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import java.time.Duration;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options of the reindex job: how it cuts the repository's ids into ranges and reads them, how it writes the new
 * index, and what it does at the end.
 */
@Command(name = "reindex", description = "Reindexes a repository from MongoDB into a new index, then moves the "
        + "repository's alias to it (the job of bin/volumizer reindex).",
        footer = {"%nExample:", "  bin/volumizer reindex demo"})
public final class ReindexOptions extends CommandStepOptions {

    @Option(names = "--range-size", defaultValue = "1000", description = "Documents per id range, the unit of progress and of retries (default: ${DEFAULT-VALUE}).")
    public int rangeSize;

    @Option(names = "--read-batch-size", defaultValue = "1000", description = "Documents per MongoDB cursor batch (default: ${DEFAULT-VALUE}).")
    public int readBatchSize;

    @Option(names = "--max-docs-per-second", defaultValue = "0", description = "Reads at most this many documents a second, "
            + "all readers together, to leave the stores to their users; 0: as fast as they go (default: ${DEFAULT-VALUE}).")
    public double maxDocsPerSecond;

    @Option(names = "--retry-failed", description = "Read again only the ranges that failed in this command's earlier run, into its index.")
    public boolean retryFailed;

    @Option(names = "--delete-old", description = "Delete the index the alias leaves, once it moved (default: kept, for a rollback).")
    public boolean deleteOld;

    @Option(names = "--catch-up-margin", defaultValue = "PT1M", description = "How far before the reindex's start the "
            + "catch-up reads what was imported since: longer than a batch takes to reach "
            + "MongoDB and than the TaskManagers' clocks differ (default: ${DEFAULT-VALUE}).")
    public Duration catchUpMargin;

    @Option(names = "--fail-range", defaultValue = "-1", hidden = true, description = "Fails the range of this index (a test's fault).")
    public int failRange;

    @Option(names = "--hold-catch-up", defaultValue = "PT0S", hidden = true, description = "Holds the first catch-up's "
            + "read this long (a test's slow scan).")
    public Duration holdCatchUp;

    @Mixin public IndexSettings settings = new IndexSettings();

    @Override
    protected void validateCommand() {
        require(rangeSize >= 1, "--range-size must be at least 1, was " + rangeSize);
        require(readBatchSize >= 1, "--read-batch-size must be at least 1, was " + readBatchSize);
        require(maxDocsPerSecond >= 0, "--max-docs-per-second must be 0 (no limit) or positive, was " + maxDocsPerSecond);
        require(!catchUpMargin.isNegative(), "--catch-up-margin must not be negative, was " + catchUpMargin);
        settings.validate();
        settings.requireFileTextHere(Step.REINDEX);
    }
}
