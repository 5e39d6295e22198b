package io.volumizer.sinks.mongodb;

import org.apache.flink.api.common.typeinfo.TypeInformation;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.bulk.BulkSink;
import io.volumizer.sinks.bulk.BulkSinkBuilder;
import io.volumizer.sinks.internal.ImportedEventSizes;
import io.volumizer.stores.mongodb.RepositoryDatabases;

/**
 * Builds the sink of imported documents into their repositories' MongoDB databases: versioned upserts, each
 * document in its repository's database; a failed one is dead-lettered as the document event it came from.
 */
public final class MongoSinkBuilder extends BulkSinkBuilder<MongoSinkBuilder> {

    private RepositoryDatabases databases;
    private AvroCodec<DocumentEvent> deadLetterCodec;

    /** Where each repository's documents are written. */
    public MongoSinkBuilder setDatabases(RepositoryDatabases databases) {
        this.databases = databases;
        return this;
    }

    /** Encodes a failed document's event, its dead letter's payload. */
    public MongoSinkBuilder setDeadLetterCodec(AvroCodec<DocumentEvent> deadLetterCodec) {
        this.deadLetterCodec = deadLetterCodec;
        return this;
    }

    public BulkSink<ImportedEvent> build() {
        if (databases == null || deadLetterCodec == null) {
            throw new IllegalStateException("a MongoDB sink needs its databases and its dead letters' codec");
        }
        return sink(new MongoBulkWriter(new MongoConnection(databases, backoff()), deadLetterCodec),
                ImportedEventSizes::estimate, TypeInformation.of(ImportedEvent.class));
    }
}
