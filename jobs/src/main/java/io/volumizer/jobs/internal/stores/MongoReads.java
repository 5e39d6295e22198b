package io.volumizer.jobs.internal.stores;

import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.MongoException;

import io.volumizer.stores.Backoff;

/** A MongoDB read retried with backoff while MongoDB cannot be reached; past the retries, the error fails the job. */
public final class MongoReads {

    private static final Logger LOG = LoggerFactory.getLogger(MongoReads.class);

    private MongoReads() {
    }

    /** @param what the read, as the log names it ({@code <command>: reading selected documents}) */
    public static <T> T retried(Backoff backoff, String what, Supplier<T> read) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.get();
            } catch (MongoException e) {
                if (attempt > backoff.maxRetries()) {
                    throw e;
                }
                LOG.warn("{} failed ({}), retry {}", what, e.getMessage(), attempt);
                backoff.sleep(attempt);
            }
        }
    }
}
