package io.volumizer.harness;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The documents one measured run has taken through, read from the stores: those its store holds and those its job
 * dead-lettered. A dead-lettered document is done with as much as a stored one, so their sum is the run's
 * {@link Progress}: a run that dead-letters still ends, and says how many it dead-lettered.
 */
public final class Through {

    private static final LongSupplier NONE = () -> 0;

    private final String what;
    private final Progress progress;
    private final LongSupplier stored;
    private final LongSupplier deadLettered;
    private long lastStored;
    private long lastDeadLettered;

    public Through(String what, Progress progress, LongSupplier stored, LongSupplier deadLettered) {
        this.what = what;
        this.progress = progress;
        this.stored = stored;
        this.deadLettered = deadLettered;
    }

    /** A run without dead letters: a baseline loop, which fails instead. */
    public static Through stored(String what, Progress progress, LongSupplier stored) {
        return new Through(what, progress, stored, NONE);
    }

    public String what() {
        return what;
    }

    public Progress progress() {
        return progress;
    }

    /** Whether it is a job's run, whose dead letters are counted. */
    boolean countsDeadLetters() {
        return deadLettered != NONE;
    }

    /** As last read. */
    public long deadLettered() {
        return lastDeadLettered;
    }

    boolean complete() {
        return progress.complete();
    }

    /**
     * Reads both counts (not once complete); a run starts at its first document seen unless its progress has a
     * start sample.
     *
     * @return whether either count changed since the last reading
     */
    boolean read(long nanos) {
        if (complete()) {
            return false;
        }
        long nowStored = stored.getAsLong();
        long nowDeadLettered = deadLettered.getAsLong();
        boolean changed = nowStored != lastStored || nowDeadLettered != lastDeadLettered;
        lastStored = nowStored;
        lastDeadLettered = nowDeadLettered;
        if (nowStored + nowDeadLettered > 0) {
            progress.reached(nanos, nowStored + nowDeadLettered);
        }
        return changed;
    }

    /** {@code what: 1,000 stored + 20 dead-lettered of 2,000 documents}. */
    public String describe() {
        return String.format(Locale.ROOT, "%s: %,d stored + %,d dead-lettered of %,d documents", what, lastStored,
                lastDeadLettered, progress.expected());
    }
}
