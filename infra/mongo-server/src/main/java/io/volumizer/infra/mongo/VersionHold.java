package io.volumizer.infra.mongo;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;

import org.h2.mvstore.MVStore;

/**
 * Keeps the store's versions from now on readable until closed. A read of many documents holds an old version
 * of the map; with writes beside it, after the store's retention time (45 s) the chunks of that version were
 * freed under it, and a full scan of millions of documents failed with "Chunk N not found". A reader registered
 * this way is what H2's own transactions do.
 */
final class VersionHold implements AutoCloseable {

    static final Cleaner CLEANER = Cleaner.create();

    private final MVStore store;
    private final MVStore.TxCounter usage;
    private final AtomicBoolean released = new AtomicBoolean();

    VersionHold(MVStore store) {
        this.store = store;
        this.usage = store.registerVersionUsage();
    }

    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            store.deregisterVersionUsage(usage);
        }
    }
}
