package io.volumizer.stores.search;

import java.util.List;

import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.StoreUnavailableException;

/**
 * Bulk writes of imported documents with external versions: replays are idempotent, and an older event never
 * replaces a newer one (reported stale). Items the cluster cannot take now (overload, a shard or node unavailable, a
 * cluster block) are retried with the writer's backoff, then the write throws {@link StoreUnavailableException} (the
 * task restarts from its checkpoint); only an item that is the document's own fault is returned failed, for the
 * dead-letter topic. Thread-safe.
 */
public interface SearchWriter {

    /** Indexes each event's document, or deletes it for a delete, routed to a shard as its repository's layout says. */
    BulkResult<ImportedEvent> write(List<ImportedEvent> batch);

    /**
     * This writer writing every document into one generation, the one a reindex fills, instead of its repository's
     * alias; no index is made on first use.
     */
    SearchWriter into(String generation);
}
