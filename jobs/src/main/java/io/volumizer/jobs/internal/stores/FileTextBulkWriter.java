package io.volumizer.jobs.internal.stores;

import java.util.List;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.mongodb.MongoDocumentStore;

/**
 * Writes live repositories' files' text once read: into each document's MongoDB record of that version, for a
 * reindex to carry ({@link MongoDocumentStore#storeFileTexts}), then into the index, in the document's form with its
 * text, whose outcome (written, stale, failed) is the batch's.
 */
public final class FileTextBulkWriter implements BulkWriter<ImportedEvent> {

    private static final long serialVersionUID = 1L;

    private final MongoConnection mongo;
    private final SearchBulkWriter index;
    private transient MongoDocumentStore store;

    public FileTextBulkWriter(MongoConnection mongo, SearchBulkWriter index) {
        this.mongo = mongo;
        this.index = index;
    }

    @Override
    public void open(RuntimeContext context) {
        store = mongo.open(context);
        index.open(context);
    }

    @Override
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        store.storeFileTexts(batch);
        return index.write(batch);
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
