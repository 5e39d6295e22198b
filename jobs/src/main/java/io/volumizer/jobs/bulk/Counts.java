package io.volumizer.jobs.bulk;

/** What became of selected documents: changed (an event appended), or skipped (changed or gone since selected). */
public final class Counts {

    public long processed;
    public long skipped;

    public Counts() {
    }

    Counts(long processed, long skipped) {
        this.processed = processed;
        this.skipped = skipped;
    }
}
