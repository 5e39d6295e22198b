package io.volumizer.stores.mongodb;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.MongoException;

import io.volumizer.stores.Backoff;

/**
 * A MongoDB read retried with backoff while MongoDB cannot answer (unreachable, failing over); past the retries, the
 * error is the caller's (a job's failure, a follower's exit).
 */
public final class MongoReads {

    private static final Logger LOG = LoggerFactory.getLogger(MongoReads.class);

    private MongoReads() {
    }

    /** A read that may fail with MongoDB's errors, and with {@code E}. */
    @FunctionalInterface
    public interface Read<T, E extends Exception> {
        T get() throws E;
    }

    /** @param what the read, as the log names it ({@code <command>: reading selected documents}) */
    public static <T, E extends Exception> T retried(Backoff backoff, String what, Read<T, E> read) throws E {
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
