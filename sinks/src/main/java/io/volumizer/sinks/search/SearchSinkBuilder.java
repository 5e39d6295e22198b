package io.volumizer.sinks.search;

import org.apache.flink.api.common.typeinfo.TypeInformation;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.bulk.BulkSink;
import io.volumizer.sinks.bulk.BulkSinkBuilder;
import io.volumizer.sinks.bulk.BulkWriter;
import io.volumizer.sinks.internal.ImportedEventSizes;
import io.volumizer.sinks.mongodb.MongoConnection;

/**
 * Builds the sinks of imported documents into the search engine (Elasticsearch or OpenSearch, as the connection's
 * options say): bulk writes with external versions, each document into its repository's index (its alias) or, for
 * a reindex, all into one new generation; a failed one is dead-lettered as its imported event.
 */
public final class SearchSinkBuilder extends BulkSinkBuilder<SearchSinkBuilder> {

    private SearchConnection connection;
    private AvroCodec<ImportedEvent> deadLetterCodec;
    private String generation;

    /** The engine, the indices' names and their layouts. */
    public SearchSinkBuilder setConnection(SearchConnection connection) {
        this.connection = connection;
        return this;
    }

    /** Encodes a failed document, its dead letter's payload. */
    public SearchSinkBuilder setDeadLetterCodec(AvroCodec<ImportedEvent> deadLetterCodec) {
        this.deadLetterCodec = deadLetterCodec;
        return this;
    }

    /** Writes every document into {@code generation}, a concrete index a reindex fills before the alias moves. */
    public SearchSinkBuilder setGeneration(String generation) {
        this.generation = generation;
        return this;
    }

    /** The sink of documents' metadata. */
    public BulkSink<ImportedEvent> build() {
        return sink(searchWriter());
    }

    /**
     * The sink of live repositories' files' text once read: into MongoDB beside the documents still of that version
     * ({@code mongo}), for a reindex to carry, then, for those documents, into the index, in the document's form with
     * its text; the texts of documents changed or deleted since are stale.
     */
    public BulkSink<ImportedEvent> buildFileTexts(MongoConnection mongo) {
        return sink(new FileTextBulkWriter(mongo, searchWriter()));
    }

    /** The writer alone, for an operator that writes batches of its own (a reindex's catch-up). */
    public BulkWriter<ImportedEvent> buildWriter() {
        return searchWriter();
    }

    private SearchBulkWriter searchWriter() {
        if (connection == null || deadLetterCodec == null) {
            throw new IllegalStateException("a search sink needs its connection and its dead letters' codec");
        }
        return new SearchBulkWriter(connection, backoff(), deadLetterCodec, generation);
    }

    private BulkSink<ImportedEvent> sink(BulkWriter<ImportedEvent> writer) {
        return sink(writer, ImportedEventSizes::estimate, TypeInformation.of(ImportedEvent.class));
    }
}
