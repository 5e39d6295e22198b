package io.volumizer.sinks.search;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.bulk.BulkWriter;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.mongodb.MongoDocumentStore;

/**
 * Writes live repositories' files' text once read: into MongoDB beside the documents still of that version, for a
 * reindex to carry ({@link MongoDocumentStore#storeFileTexts}), then, for those documents, into the index, in the
 * document's form with its text.
 */
final class FileTextBulkWriter implements BulkWriter<ImportedEvent> {

    private static final long serialVersionUID = 1L;

    private final MongoConnection mongo;
    private final SearchBulkWriter index;
    private transient MongoDocumentStore store;

    FileTextBulkWriter(MongoConnection mongo, SearchBulkWriter index) {
        this.mongo = mongo;
        this.index = index;
    }

    @Override
    public void open(RuntimeContext context) {
        store = mongo.open(context);
        index.open(context);
    }

    /** The texts of documents no longer of their version (changed or deleted since) are stale: not indexed. */
    @Override
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        List<ImportedEvent> current = store.storeFileTexts(batch);
        BulkResult<ImportedEvent> result = current.isEmpty() ? new BulkResult<>() : index.write(current);
        Set<ImportedEvent> written = Collections.newSetFromMap(new IdentityHashMap<>());
        written.addAll(current);
        batch.stream().filter(event -> !written.contains(event)).forEach(result::stale);
        return result;
    }

    @Override
    public byte[] payloadOf(ImportedEvent item) {
        return index.payloadOf(item);
    }

    @Override
    public String idOf(ImportedEvent item) {
        return index.idOf(item);
    }

    @Override
    public void close() {
        try {
            index.close();
        } finally {
            mongo.close();
        }
    }
}
