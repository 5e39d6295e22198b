package io.volumizer.harness;

import java.util.function.LongSupplier;

import io.volumizer.ops.stores.CommittedRecordCount;

/** A measure's job, and the count of its dead letters. */
public record MeasuredJob(String what, String id, CommittedRecordCount deadLetters) implements AutoCloseable {

    /** What the job has taken through: the documents {@code stored} and those it dead-lettered. */
    public Through through(Progress progress, LongSupplier stored) {
        return new Through(what, progress, stored, deadLetters::count);
    }

    /**
     * What the job has taken through of what {@code upstream} passed on: a document the upstream job dead-lettered
     * never reaches this one, so it is through this stage too.
     */
    public Through throughAfter(MeasuredJob upstream, Progress progress, LongSupplier stored) {
        return new Through(what, progress, stored, () -> upstream.deadLetters().count() + deadLetters.count());
    }

    @Override
    public void close() {
        deadLetters.close();
    }
}
