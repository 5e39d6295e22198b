package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.VERSION;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.bson.Document;

import io.volumizer.schemas.event.DocumentEvent;

/**
 * Read-your-write: waits, up to the API's wait timeout, until MongoDB shows the version of an event appended to the
 * documents topic (or a newer one: a later write won), as the import applies it.
 */
final class AppliedWrites {

    private static final Duration POLL = Duration.ofMillis(20);

    private final Documents documents;
    private final Duration timeout;

    AppliedWrites(Documents documents, Duration timeout) {
        this.documents = documents;
        this.timeout = timeout;
    }

    Duration timeout() {
        return timeout;
    }

    /** The stored document once it shows {@code event}; empty past the timeout, or when interrupted. */
    Optional<Document> await(DocumentEvent event) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<Document> stored = applied(event);
            if (stored.isPresent() || !pause(deadline)) {
                return stored;
            }
        }
    }

    /** How many of {@code events} MongoDB does not show within the timeout: 0 once every one is applied. */
    int awaitAll(List<DocumentEvent> events) {
        List<DocumentEvent> pending = new ArrayList<>(events);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            pending.removeIf(event -> applied(event).isPresent());
            if (pending.isEmpty() || !pause(deadline)) {
                return pending.size();
            }
        }
    }

    private Optional<Document> applied(DocumentEvent event) {
        return documents.findAny(event.getRepository(), event.getId())
                .filter(stored -> stored.getLong(VERSION) >= event.getVersion());
    }

    /** @return false past {@code deadline}, or when interrupted (the interrupt is kept) */
    private static boolean pause(long deadline) {
        if (System.nanoTime() > deadline) {
            return false;
        }
        try {
            Thread.sleep(POLL.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
