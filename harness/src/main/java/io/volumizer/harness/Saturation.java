package io.volumizer.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.StoreUnavailableException;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchWriter;

/**
 * Other clients' bulk writes, as many at once as keep a small write queue full: Elasticsearch answers them, and the
 * pipeline's, with 429 while it lasts. Into indices of their own, deleted afterwards.
 */
public final class Saturation {

    private static final int CLIENTS = 8;
    private static final int BATCH = 1_000;
    /** Outside every repository's prefix (IndexNames.DEFAULT_PREFIX), so no repository template or pattern takes it. */
    private static final IndexNames INDICES = new IndexNames("bench-saturation-");
    /** None: what the cluster rejects is what is counted, at once. */
    private static final Backoff NO_RETRY = new Backoff(Duration.ZERO, Duration.ZERO, 0);

    private Saturation() {
    }

    /** Saturates for {@code duration}; returns how many of its own requests were rejected (429). */
    public static long run(SearchOptions options, Duration duration) throws Exception {
        List<ImportedEvent> batch = batch();
        LongAdder rejected = new LongAdder();
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try (SearchEngine search = SearchEngines.open(options)) {
            SearchIndices load = search.indices(INDICES);
            SearchWriter writer = load.writer(NO_RETRY);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                running.add(clients.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        try {
                            writer.write(batch);
                        } catch (StoreUnavailableException e) {
                            if (!(e.getCause() instanceof SearchException unanswered
                                    && unanswered.kind() == SearchException.Kind.UNREACHABLE)) {
                                rejected.increment();
                            } // else Elasticsearch busy beyond answering: keep going until the time is up
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
            load.deleteAll();
        } finally {
            clients.shutdownNow();
        }
        return rejected.sum();
    }

    /** A request's worth of generated documents, written again and again (a replay of the same versions is taken). */
    private static List<ImportedEvent> batch() {
        ImportedForm form = new ImportedForm();
        List<ImportedEvent> batch = new ArrayList<>(BATCH);
        for (DocumentEvent document : new BankGenerator(GeneratorSettings.of(1, 20)).documents()) {
            if (batch.size() == BATCH) {
                break;
            }
            batch.add(form.of(document));
        }
        return batch;
    }
}
