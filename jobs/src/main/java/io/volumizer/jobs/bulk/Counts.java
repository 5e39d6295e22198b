package io.volumizer.jobs.bulk;

/**
 * What became of selected documents: changed (an event appended), or skipped (changed or gone since selected). A
 * record, which Flink serializes as a POJO.
 */
public record Counts(long processed, long skipped) {

    public static final Counts NONE = new Counts(0, 0);

    public Counts plus(Counts other) {
        return new Counts(processed + other.processed, skipped + other.skipped);
    }
}
