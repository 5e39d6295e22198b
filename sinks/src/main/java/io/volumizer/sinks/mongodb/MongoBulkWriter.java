package io.volumizer.sinks.mongodb;

import java.util.List;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.bulk.BulkWriter;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.mongodb.MongoDocumentStore;

/** Writes imported documents to MongoDB; a failed one is dead-lettered as the document event it came from. */
final class MongoBulkWriter implements BulkWriter<ImportedEvent> {

    private static final long serialVersionUID = 1L;

    private final MongoConnection connection;
    private final AvroCodec<DocumentEvent> documentCodec;
    private transient MongoDocumentStore store;

    MongoBulkWriter(MongoConnection connection, AvroCodec<DocumentEvent> documentCodec) {
        this.connection = connection;
        this.documentCodec = documentCodec;
    }

    @Override
    public void open(RuntimeContext context) {
        store = connection.open(context);
    }

    @Override
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        return store.write(batch);
    }

    @Override
    public byte[] payloadOf(ImportedEvent item) {
        return documentCodec.encode(item.getDocument());
    }

    @Override
    public String idOf(ImportedEvent item) {
        return item.getDocument().getId();
    }

    @Override
    public void close() {
        connection.close();
    }
}
