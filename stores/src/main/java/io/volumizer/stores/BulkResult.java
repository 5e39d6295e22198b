package io.volumizer.stores;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.volumizer.schemas.event.ReasonClass;

/**
 * What a bulk write did with each item: written, skipped because the store already holds a newer (or the same)
 * version, or failed for a reason that retrying cannot fix (those go to the dead-letter topic).
 */
public final class BulkResult<T> {

    /** An item that cannot be written, and why: the kind of refusal, and its particulars. */
    public record Failure<T>(T item, ReasonClass reasonClass, String reason) {
    }

    private final List<T> written = new ArrayList<>();
    private final List<T> stale = new ArrayList<>();
    private final List<Failure<T>> failed = new ArrayList<>();
    private int retries;

    public void written(T item) {
        written.add(item);
    }

    public void stale(T item) {
        stale.add(item);
    }

    public void failed(T item, ReasonClass reasonClass, String reason) {
        failed.add(new Failure<>(item, reasonClass, reason));
    }

    /** Records that the store was unavailable or overloaded, and the write is about to be retried after a backoff. */
    public void retried() {
        retries++;
    }

    /** Adds everything {@code other} recorded. */
    public void addAll(BulkResult<T> other) {
        written.addAll(other.written);
        stale.addAll(other.stale);
        failed.addAll(other.failed);
        retries += other.retries;
    }

    public List<T> written() {
        return Collections.unmodifiableList(written);
    }

    public List<T> stale() {
        return Collections.unmodifiableList(stale);
    }

    public List<Failure<T>> failed() {
        return Collections.unmodifiableList(failed);
    }

    /** How many times the write backed off and retried before this result. */
    public int retries() {
        return retries;
    }
}
