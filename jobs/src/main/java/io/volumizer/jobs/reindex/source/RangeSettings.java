package io.volumizer.jobs.reindex.source;

import java.io.Serializable;

import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.RepositoryDatabases;

/**
 * What the reindex source reads and where it reports: the repository's collection (in its own database), how
 * ranges are cut and read, how fast (documents a second, all readers together; 0: no limit), the command whose
 * ranges it records (in the job's database), whether it reads only that command's failed ranges again, and a range
 * to fail on purpose (a test's fault; -1 for none).
 */
public record RangeSettings(RepositoryDatabases databases, String repository, String commandId, int rangeSize,
        int batchSize, double maxDocsPerSecond, boolean retryFailed, int failRange, Backoff backoff) implements Serializable {
}
