package io.volumizer.harness;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.api.commands.CommandReconciler;
import io.volumizer.api.commands.CommandRefusedException;
import io.volumizer.api.commands.Commands;

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
        return of(commands, start(commands, repository, rangeSize), documents, processed -> { });
    }

    /** Starts a reindex of {@code repository} in ranges of {@code rangeSize}, deleting the old index; its command id. */
    public static String start(Commands commands, String repository, int rangeSize) throws Exception {
        return commands.reindex(repository, List.of("--delete-old", "--range-size", Integer.toString(rangeSize)));
    }

    /**
     * Follows the reindex command {@code id} to its end, telling {@code onProgress} each count of processed documents
     * read; fails unless it COMPLETED. Interrupted, it aborts the command (its job stopped with a savepoint, so that
     * {@link Commands#resume} goes on from there) before it throws.
     */
    public static ReindexMeasure of(Commands commands, String id, long documents, LongConsumer onProgress)
            throws Exception {
        Progress progress = new Progress(documents);
        JsonNode status;
        try (CommandReconciler.Schedule reconciling = commands.reconciler().reconciling(id)) {
            do {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    abort(commands, id, e);
                }
                status = commands.status(id);
                long processed = status.path("processed").asLong();
                if (processed == 0) {
                    // A reindex of one range reports all its documents at once: its rate starts here.
                    progress.idle();
                } else if (!progress.complete()) {
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

    /** Aborts the command {@code interrupted} followed, when it has a job to stop; then throws the interrupt on. */
    private static void abort(Commands commands, String id, InterruptedException interrupted) throws Exception {
        try {
            commands.abort(id);
        } catch (CommandRefusedException e) {
            // Not started yet, or already finishing in its job: nothing to stop with a savepoint.
            interrupted.addSuppressed(e);
        }
        throw interrupted;
    }
}
