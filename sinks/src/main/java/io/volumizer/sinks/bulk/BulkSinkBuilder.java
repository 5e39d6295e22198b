package io.volumizer.sinks.bulk;

import java.time.Duration;

import org.apache.flink.api.common.typeinfo.TypeInformation;

import io.volumizer.stores.Backoff;

/**
 * What every store's sink builder sets: the stage, when to flush, and the backoff of its retries of an overloaded
 * store. A store's builder adds where to write.
 */
public abstract class BulkSinkBuilder<B extends BulkSinkBuilder<B>> {

    private String stage;
    private Integer maxActions;
    private long maxBytes = Long.MAX_VALUE;
    private Duration interval;
    private Backoff backoff = Backoff.DEFAULT;

    /** The pipeline stage the writes are: their metrics' and dead letters' label. */
    public B setStage(String stage) {
        this.stage = stage;
        return self();
    }

    /** Records a batch holds at most. */
    public B setBulkFlushMaxActions(int maxActions) {
        this.maxActions = maxActions;
        return self();
    }

    /** Estimated bytes a batch holds at most (no limit by default). */
    public B setBulkFlushMaxBytes(long maxBytes) {
        this.maxBytes = maxBytes;
        return self();
    }

    /** How old a batch may grow before it is written. */
    public B setBulkFlushInterval(Duration interval) {
        this.interval = interval;
        return self();
    }

    /** How the store's client retries an overloaded store ({@link Backoff#DEFAULT} by default). */
    public B setBackoff(Backoff backoff) {
        this.backoff = backoff;
        return self();
    }

    protected Backoff backoff() {
        return backoff;
    }

    private String stage() {
        if (stage == null) {
            throw new IllegalStateException("a sink's stage labels its metrics and dead letters: set it");
        }
        return stage;
    }

    /** The sink of {@code writer}, with what this builder set. */
    protected <T> BulkSink<T> sink(BulkWriter<T> writer, BulkSink.SizeOf<T> sizeOf, TypeInformation<T> type) {
        if (maxActions == null || interval == null) {
            throw new IllegalStateException("a sink flushes by count and by age: set both (the step's settings)");
        }
        return new BulkSink<>(stage(), writer, new BulkFlushOptions(maxActions, maxBytes, interval), sizeOf, type);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
