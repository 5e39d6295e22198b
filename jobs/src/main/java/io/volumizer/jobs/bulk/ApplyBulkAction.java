package io.volumizer.jobs.bulk;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.stores.mongodb.MongoReads;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.Renditions;
import io.volumizer.options.steps.BulkUpdateOptions.Action;
import io.volumizer.domain.topology.Topology;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.options.conventions.MetricNames;

/**
 * Turns selected documents into events, a batch of MongoDB reads at a time: each document as MongoDB holds it,
 * with the properties set (or as a delete), at the version after the one selected, from the command (origin
 * {@code bulk}, the command's id). A document whose version changed since it was selected is skipped (a user's
 * newer edit wins), and so is one deleted since. One this command already changed (a slice read again after a
 * restart) yields nothing and is not counted again. The import applies the events like any other: in the log,
 * replayable, followed by the index.
 *
 * <p>{@code route} moves each selected document that the topology's rules now send to another repository (a
 * statement that has turned 6 months old goes to the archive): a create in that repository, then a delete in this
 * one, both keyed by its parent, so the import applies them in that order and the document is never absent. Its
 * blob, when stored, is copied into the other repository's store first if that is another store. A document the
 * rules keep here is skipped.
 */
final class ApplyBulkAction extends AbstractStreamOperator<DocumentEvent>
        implements OneInputStreamOperator<Selected, DocumentEvent>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ApplyBulkAction.class);
    static final OutputTag<Counts> COUNTS = new OutputTag<>("counts") { };

    private final MongoConnection mongo;
    private final String repository;
    private final String commandId;
    private final Action action;
    private final LinkedHashMap<String, Object> properties;
    private final Instant commandTime;
    private final int batchSize;
    private final Backoff backoff;
    private final Topology topology;
    private final RepositoryBlobStores blobStores;

    private transient List<Selected> buffer;
    private transient MongoCollection<Document> documents;
    private transient RepositoryBlobStores.Opened stores;
    private transient Counter changed;
    private transient Counter skippedCount;

    /**
     * @param topology   the rules {@code route} moves documents by (null for the other actions)
     * @param blobStores the repositories' blob stores, which {@code route} copies a stored blob between
     */
    ApplyBulkAction(MongoConnection mongo, String repository, String commandId, Action action,
            Map<String, Object> properties, Instant commandTime, int batchSize, Backoff backoff, Topology topology,
            RepositoryBlobStores blobStores) {
        this.mongo = mongo;
        this.repository = repository;
        this.commandId = commandId;
        this.action = action;
        this.properties = new LinkedHashMap<>(properties);
        this.commandTime = commandTime;
        this.batchSize = batchSize;
        this.backoff = backoff;
        this.topology = topology;
        this.blobStores = blobStores;
    }

    @Override
    public void open() throws Exception {
        super.open();
        buffer = new ArrayList<>(batchSize);
        documents = mongo.openRepositories(getRuntimeContext()).collection(repository);
        stores = blobStores.open();
        MetricGroup metrics = StageMetrics.of(getMetricGroup(), MetricNames.BULK);
        changed = metrics.counter(MetricNames.CHANGED);
        skippedCount = metrics.counter(MetricNames.SKIPPED);
    }

    @Override
    public void processElement(StreamRecord<Selected> element) {
        buffer.add(element.getValue());
        if (buffer.size() >= batchSize) {
            flush();
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void endInput() {
        flush();
    }

    private void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        Map<String, Long> selected = new HashMap<>();
        for (Selected document : buffer) {
            selected.put(document.id(), document.version());
        }
        long processed = 0;
        long skipped = buffer.size();
        for (Document stored : read(List.copyOf(selected.keySet()))) {
            String id = stored.getString(DocumentFields.KEY);
            if (BulkOrigin.changedBy(stored, commandId)) {
                skipped--; // changed by this command already: counted when it was
            } else if (!MongoDocumentStore.isTombstone(stored) && stored.getLong(DocumentFields.VERSION) == selected.get(id)) {
                List<DocumentEvent> changes = changes(stored);
                changes.forEach(change -> output.collect(new StreamRecord<>(change)));
                if (!changes.isEmpty()) {
                    processed++;
                    skipped--;
                }
            }
        }
        changed.inc(processed);
        skippedCount.inc(skipped);
        output.collect(COUNTS, new StreamRecord<>(new Counts(processed, skipped)));
        buffer.clear();
    }

    /** The documents as MongoDB holds them, read again with backoff while it cannot be reached. */
    private List<Document> read(List<String> ids) {
        return MongoReads.retried(backoff, commandId + ": reading selected documents",
                () -> documents.find(Filters.in(DocumentFields.KEY, ids)).into(new ArrayList<>()));
    }

    /** The events that change a stored document: none where {@code route} keeps it in this repository. */
    private List<DocumentEvent> changes(Document stored) {
        if (action == Action.route) {
            return moves(stored);
        }
        DocumentEvent current = MongoDocumentStore.toEvent(stored, action == Action.delete ? Operation.DELETE : Operation.UPDATE);
        DocumentEvent.Builder next = next(current).setModified(commandTime);
        if (action == Action.setProperties) {
            Map<String, Object> changed = new LinkedHashMap<>(current.getProperties());
            changed.putAll(properties);
            next.setProperties(changed);
        }
        return List.of(next.build());
    }

    /** A create where the rules send the document now, then a delete here; nothing if they keep it here. */
    private List<DocumentEvent> moves(Document stored) {
        DocumentEvent current = MongoDocumentStore.toEvent(stored, Operation.CREATE);
        String target = topology.route(current, commandTime);
        if (target.equals(repository)) {
            return List.of();
        }
        copyBlob(current.getBlob(), target);
        DocumentEvent moved = next(current).build();
        return List.of(DocumentEvent.newBuilder(moved).setRepository(target).build(),
                DocumentEvent.newBuilder(moved).setOperation(Operation.DELETE).build());
    }

    /** The document at the version after the stored one, from this command. */
    private DocumentEvent.Builder next(DocumentEvent current) {
        return DocumentEvent.newBuilder(current).setVersion(current.getVersion() + 1).setEventTime(commandTime)
                .setOrigin(BulkOrigin.of(commandId));
    }

    /**
     * A stored blob, put into the target repository's store when that is another store: from this repository's
     * store, or rendered again from its key; a stored blob found nowhere is left as it was, and logged.
     */
    private void copyBlob(BlobRef blob, String target) {
        if (blob == null || blob.getDigest() == null) {
            return;
        }
        Optional<BlobStore> to = stores.of(target);
        Optional<BlobStore> from = stores.of(repository);
        if (to.isEmpty() || from.equals(to)) {
            return;
        }
        Optional<byte[]> bytes = from.flatMap(store -> store.get(blob.getDigest()));
        if (bytes.isEmpty() && BlobKey.isGenerated(blob.getKey())) {
            bytes = Optional.of(Renditions.render(BlobKey.parse(blob.getKey(), repository)));
        }
        if (bytes.isPresent()) {
            to.get().put(bytes.get());
        } else {
            LOG.warn("{}: blob {} is in no store of repository {}; the document moves to {} without it", commandId,
                    blob.getDigest(), repository, target);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            mongo.close();
            if (stores != null) {
                stores.close();
            }
        } finally {
            super.close();
        }
    }
}
