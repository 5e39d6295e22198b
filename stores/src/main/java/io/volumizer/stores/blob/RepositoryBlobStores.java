package io.volumizer.stores.blob;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which blob store holds each repository's blobs: the shared one ({@code --blob-store}, if any), unless the
 * topology gives a repository a store of its own. Serialized with a job graph; {@link #open()} gives the stores,
 * each opened when a repository first needs it.
 *
 * @param shared the job's or the API's blob store options (endpoint and region apply to every store)
 * @param own    the locations of the repositories that have their own store
 */
public record RepositoryBlobStores(BlobStoreOptions shared, Map<String, String> own) implements Serializable {

    /** Whether any repository's blobs are stored (else every blob is rendered again from its key when read). */
    public boolean anyConfigured() {
        return shared.configured() || !own.isEmpty();
    }

    private Optional<BlobStoreOptions> options(String repository) {
        String location = own.get(repository);
        if (location != null) {
            return Optional.of(shared.at(location));
        }
        return shared.configured() ? Optional.of(shared) : Optional.empty();
    }

    public Opened open() {
        return new Opened();
    }

    /** The stores in use, one per location however many repositories share it; closes them all. */
    public final class Opened implements AutoCloseable {

        private final Map<String, BlobStore> byLocation = new HashMap<>();

        private Opened() {
        }

        /** The repository's store, or none when its blobs are not stored. */
        public synchronized Optional<BlobStore> of(String repository) {
            return options(repository).map(options -> byLocation.computeIfAbsent(options.location, l -> options.open()));
        }

        /** The repository's store, where one must be (the API's, whose {@code --blob-store} is required). */
        public BlobStore require(String repository) {
            return of(repository).orElseThrow(() -> new IllegalStateException("no blob store for repository '"
                    + repository + "': set --blob-store"));
        }

        @Override
        public synchronized void close() {
            byLocation.values().forEach(BlobStore::close);
            byLocation.clear();
        }
    }
}
