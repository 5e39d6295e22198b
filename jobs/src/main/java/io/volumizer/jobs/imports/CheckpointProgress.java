package io.volumizer.jobs.imports;

/**
 * A subtask's view of the job's checkpoints, which is what waits inside the import are measured in: the newest barrier
 * it passed, the newest checkpoint it knows complete, how many completed since it (re)started, and when, on its
 * clock, it started. Not state: after a restart it starts again from the checkpoint restored.
 */
final class CheckpointProgress {

    private long lastBarrier;
    private long lastCompleted;
    private int completedSinceStart;
    private long startedAt = -1;

    /** {@code restoredCheckpoint}: the checkpoint the subtask was restored from, 0 on a fresh start. */
    CheckpointProgress(long restoredCheckpoint) {
        this.lastBarrier = restoredCheckpoint;
        this.lastCompleted = restoredCheckpoint;
    }

    void barrierPassed(long checkpointId) {
        lastBarrier = Math.max(lastBarrier, checkpointId);
    }

    void completed(long checkpointId) {
        if (checkpointId > lastCompleted) {
            lastCompleted = checkpointId;
            completedSinceStart++;
        }
    }

    /** Called with the subtask's clock on every record and timer: the first call marks its start. */
    void noteStart(long now) {
        if (startedAt < 0) {
            startedAt = now;
        }
    }

    /** The newest checkpoint whose barrier this subtask has passed (the one restored from, after a restart). */
    long lastBarrier() {
        return lastBarrier;
    }

    /** The newest checkpoint this subtask knows to be complete. */
    long lastCompleted() {
        return lastCompleted;
    }

    /** Checkpoints completed since this subtask started (after a restore, since the restore). */
    int completedSinceStart() {
        return completedSinceStart;
    }

    /** When this subtask started, on its clock; -1 before its first record or timer. */
    long startedAt() {
        return startedAt;
    }
}
