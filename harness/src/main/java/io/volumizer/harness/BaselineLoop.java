package io.volumizer.harness;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchWriter;

/**
 * A one-off script's loop, the baseline of a job: run on a thread of its own and measured as the jobs are, by the
 * count its store reports, polled. (Measured by the loop itself, its search index was never searched while the
 * job's was refreshed at every poll, and it saw its writes earlier than a poller can.)
 */
public final class BaselineLoop {

    /** The loop's body: it fails instead of dead-lettering. */
    public interface Body {
        void run() throws Exception;
    }

    private BaselineLoop() {
    }

    /** Runs {@code body} and polls {@code count} until it reaches {@code expected}. */
    public static Through measure(Await polling, String what, long expected, LongSupplier count, Body body)
            throws InterruptedException {
        Through through = Through.stored(what, Progress.startingNow(expected), count);
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
            try {
                body.run();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        polling.untilThrough(List.of(through), () -> {
            if (running.isCompletedExceptionally()) {
                running.join();
            }
        });
        running.join();
        return through;
    }

    /**
     * A one-off script's indexing: the index stage's own {@code _bulk} writer (versioned index actions, 1,000 per
     * request, into an index made from the same template) in a plain loop, without Flink or Kafka.
     */
    public static Through rawBulk(Await polling, String what, SearchIndices raw, List<ImportedEvent> documents,
            LongSupplier count) throws Exception {
        raw.installTemplate();
        SearchWriter store = raw.writer(Backoff.DEFAULT);
        return measure(polling, what, documents.size(), count, () -> {
            for (int from = 0; from < documents.size(); from += 1000) {
                var result = store.write(documents.subList(from, Math.min(from + 1000, documents.size())));
                if (!result.failed().isEmpty()) {
                    throw new IllegalStateException(what + ": the engine refused " + result.failed().size()
                            + " documents, the first: " + result.failed().get(0).reason());
                }
            }
        });
    }
}
