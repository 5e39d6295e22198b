package io.volumizer.sinks.bulk;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.net.ssl.SSLException;

import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;

import io.volumizer.stores.StoreUnavailableException;
import io.volumizer.stores.search.SearchException;

/**
 * How often a record has made its operator fail the same way, counted across the restarts of its task in this
 * TaskManager. Flink's state cannot hold the count: a failure rolls it back to the checkpoint before the record. A
 * record that failed {@link #MAX_ATTEMPTS} times the same way is a poison: its operator dead-letters it rather
 * than fail the job again. A service fault is never counted (the store being down is not the record's fault: the
 * job restarts from its checkpoint as often as the outage takes). A TaskManager that dies takes its counts with
 * it: the record then fails up to {@link #MAX_ATTEMPTS} times again on the next one.
 */
final class RecordAttempts {

    /** Failures of one record, the same way, before it is dead-lettered: two restarts to rule out a passing cause. */
    static final int MAX_ATTEMPTS = 3;
    /** Records remembered per TaskManager, least recently failed out: poisons are few, they fail again at once. */
    private static final int CAPACITY = 10_000;

    private static final Map<String, Attempts> FAILURES = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Attempts> eldest) {
            return size() > CAPACITY;
        }
    };

    private record Attempts(String signature, int count) {
    }

    private RecordAttempts() {
    }

    /**
     * Counts a failure of the record {@code recordKey} in {@code scope} (a job's operator subtask) and returns its
     * failures so far, the same way as this one, this one included; 0 for a service fault, which is not counted.
     */
    static int failed(String scope, String recordKey, Throwable error) {
        if (isServiceFault(error)) {
            return 0;
        }
        String signature = signature(error);
        synchronized (FAILURES) {
            Attempts before = FAILURES.get(scope + "\n" + recordKey);
            int count = before != null && before.signature().equals(signature) ? before.count() + 1 : 1;
            FAILURES.put(scope + "\n" + recordKey, new Attempts(signature, count));
            return count;
        }
    }

    /** Whether the record has failed often enough to be dead-lettered. */
    static boolean isPoison(int failures) {
        return failures >= MAX_ATTEMPTS;
    }

    /**
     * A store or broker unreachable, overloaded or timing out, anywhere in the cause chain: the network's exceptions,
     * the drivers' timeouts and the stores' own word for it. Not any {@link IOException}: one thrown while encoding a
     * record (a JSON processing error, say) is the record's.
     */
    static boolean isServiceFault(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SearchException search) {
                return search.isServiceFault();
            }
            if (cause instanceof StoreUnavailableException || cause instanceof SocketException
                    || cause instanceof InterruptedIOException || cause instanceof UnknownHostException
                    || cause instanceof SSLException || cause instanceof MongoSocketException
                    || cause instanceof MongoTimeoutException || cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /** What makes two failures the same: the exception's class and message, without the stack. */
    private static String signature(Throwable error) {
        return error.getClass().getName() + ": " + error.getMessage();
    }
}
