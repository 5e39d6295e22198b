package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.PROPERTIES;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.bson.Document;

import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.internal.BackendUnavailableException;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.VersionAllocator;

/**
 * The API's writes as events on the documents topic: each from the API, with a new version, keyed by parent id like
 * every other writer's, no larger than the topic takes.
 */
final class DocumentsTopic {

    private final Backends backends;
    private final VersionAllocator versions;
    private final Duration timeout;
    private final long maxEventBytes;

    /**
     * @param timeout       how long the broker's acknowledgements are waited for
     * @param maxEventBytes the largest event the documents topic takes
     */
    DocumentsTopic(Backends backends, Duration timeout, long maxEventBytes) {
        this.backends = backends;
        this.versions = new VersionAllocator(backends.mongo, Clock.systemUTC());
        this.timeout = timeout;
        this.maxEventBytes = maxEventBytes;
    }

    /** The next version of a document of {@code repository} whose stored version is {@code current}. */
    long nextVersion(String repository, long current) {
        return versions.next(repository, current);
    }

    /** The stored document as the next event of the given operation, from the API, with a new version. */
    DocumentEvent event(Document current, Operation operation) {
        Instant now = Instant.now();
        return DocumentEvent.newBuilder(MongoDocumentStore.toEvent(current, operation)).setModified(now)
                .setEventTime(now).setVersion(nextVersion(current.getString(DocumentFields.REPOSITORY),
                        current.getLong(DocumentFields.VERSION)))
                .setOrigin(origin()).build();
    }

    /** Where the API's events come from. */
    static Origin origin() {
        return Origin.newBuilder().setSource("api").build();
    }

    /** A 413 for an event the documents topic would refuse, before anything is stored. */
    void checkSize(DocumentEvent event) {
        int size;
        try {
            size = event.toByteBuffer().remaining();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (size > maxEventBytes) {
            throw new ApiException(413, "payload_too_large", PROPERTIES, "the document is " + size + " bytes as an event;"
                    + " the documents topic takes at most " + maxEventBytes + ": store large values in its file");
        }
    }

    /** Appends to the documents topic and waits for the broker's acknowledgements (acks=all). */
    void append(List<DocumentEvent> events) {
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (DocumentEvent event : events) {
                sent.add(backends.producer.send(new ProducerRecord<>(backends.documentsTopic, DocumentKeys.parentKey(event), event)));
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Future<RecordMetadata> acknowledged : sent) {
                acknowledged.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (SerializationException e) {
            throw new BackendUnavailableException("registry", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException) {
                throw new ApiException(413, "payload_too_large", null, "the change is larger than the documents topic "
                        + "takes: store large values in the document's file");
            }
            throw new BackendUnavailableException("kafka", e.getCause());
        } catch (KafkaException | TimeoutException e) {
            throw new BackendUnavailableException("kafka", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("kafka", e);
        }
    }
}
