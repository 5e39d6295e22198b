package io.volumizer.benchmarks.harness;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.api.commands.CommandReconciler;
import io.volumizer.api.commands.Commands;
import io.volumizer.benchmarks.harness.Progress;

/**
 * A reindex through its command, as a user submits it, measured by the documents its ranges report read and
 * written; its finish (catch-up of what was imported meanwhile, settings restored, refresh, alias moved, old index
 * deleted) apart.
 *
 * @param progress      the ranges' documents over time
 * @param finishSeconds from the last range's documents to the command's completion
 */
public record ReindexMeasure(Progress progress, double finishSeconds) {

    /** Reindexes {@code repository} of {@code documents} documents in ranges of {@code rangeSize}; fails unless it COMPLETED. */
    public static ReindexMeasure run(Commands commands, String repository, long documents, int rangeSize) throws Exception {
        return run(commands, repository, documents, rangeSize, processed -> { });
    }

    /** As {@link #run(Commands, String, long, int)}, telling {@code onProgress} each count of processed documents read. */
    public static ReindexMeasure run(Commands commands, String repository, long documents, int rangeSize,
            LongConsumer onProgress) throws Exception {
        String id = commands.reindex(repository, List.of("--delete-old", "--range-size", Integer.toString(rangeSize)));
        Progress progress = new Progress(documents);
        JsonNode status;
        try (CommandReconciler.Schedule reconciling = commands.reconciler().reconciling(id)) {
            do {
                Thread.sleep(100);
                status = commands.status(id);
                long processed = status.path("processed").asLong();
                if (processed > 0 && !progress.complete()) {
                    progress.reached(Math.min(processed, documents));
                    onProgress.accept(processed);
                }
            } while (status.path("state").asText().matches("SCHEDULED|RUNNING"));
        }
        if (!status.path("state").asText().equals("COMPLETED")) {
            throw new IllegalStateException("reindex " + id + " ended " + status);
        }
        double finish = Duration.between(Instant.parse(status.path("started").asText()),
                Instant.parse(status.path("completed").asText())).toMillis() / 1000.0 - progress.elapsedNanos() / 1e9;
        return new ReindexMeasure(progress, Math.max(0, finish));
    }
}
