package io.volumizer.api.internal;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Versions of API writes: microseconds since the epoch, and always above the version the document has and any
 * version this instance issued before. Two writes of one document never share a version (the import treats the
 * same version as a replay), and a later write wins over an earlier one even before the earlier is visible.
 */
public final class VersionClock {

    private final AtomicLong last = new AtomicLong();

    public long next(long currentVersion) {
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
        long floor = Math.max(currentVersion + 1, micros);
        return last.updateAndGet(previous -> Math.max(previous + 1, floor));
    }
}
