package io.volumizer.jobs.pipeline;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import io.volumizer.jobs.imports.ImportSettings;
import io.volumizer.jobs.imports.InjectedFailure;
import io.volumizer.jobs.imports.StoreBlobs;
import io.volumizer.jobs.imports.ParentLookup;
import io.volumizer.jobs.imports.ResolveAncestors;
import io.volumizer.jobs.index.IndexSettings;
import io.volumizer.jobs.internal.bulk.BulkWriteOperator;
import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.jobs.internal.kafka.DecodeFunction;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;

/**
 * The operators of the import and index stages, with their uids, shared by the separate jobs and the
 * import-and-index job so that a savepoint of one restores into the same operators everywhere.
 */
public final class Stages {

    private static final TypeInformation<ImportedEvent> IMPORTED = TypeInformation.of(ImportedEvent.class);

    private Stages() {
    }

    /** What a stage produced, and what it could not process. */
    public record Output<T>(DataStream<T> stream, DataStream<DeadLetter> deadLetters) {
    }

    /**
     * Keyed by the record key (the parent id) → decode and resolve ancestors → [store blobs] → bulk upsert into
     * MongoDB. Records cross the shuffle as the bytes Kafka delivered and are decoded after it, once.
     */
    public static Output<ImportedEvent> importDocuments(DataStream<RawRecord> documents, AvroCodec<DocumentEvent> codec,
            ParentLookup lookup, BulkWriter<ImportedEvent> repository, ImportSettings options) {
        boolean keyedByParent = options.partitionBy == ImportSettings.PartitionBy.parent;
        SingleOutputStreamOperator<ImportedEvent> resolved = documents
                .keyBy(keyedByParent ? (KeySelector<RawRecord, String>) RawRecord::keyText : RawRecord::position)
                .process(new ResolveAncestors(codec::decode, lookup, keyedByParent, options.parentRetryInterval,
                        options.parentCheckInterval, options.parentRetryMaxInterval, options.parentMaxWait, options.parentCacheTtl, options.resolvedFolderCache))
                .uid("import.parent-cache").name("Decode and resolve ancestors");
        DataStream<ImportedEvent> withBlobs = !options.blobs.configured() ? resolved
                : resolved.map(new StoreBlobs(options.blobs)).uid("import.blob-store").name("Store blobs");
        DataStream<ImportedEvent> toWrite = options.injectFailureAt > 0
                ? withBlobs.map(InjectedFailure.at(options.injectFailureAt)).uid("import.injected-failure")
                        .name("Injected failure") : withBlobs;
        SingleOutputStreamOperator<ImportedEvent> written = toWrite
                .transform("Write to MongoDB", IMPORTED, new BulkWriteOperator<>(ResolveAncestors.STAGE, repository,
                        options.batchSize, Long.MAX_VALUE, options.flushInterval, Stages::estimatedBytes))
                .uid("import.mongodb-writer");
        return new Output<>(written, resolved.getSideOutput(DeadLetters.TAG).union(written.getSideOutput(DeadLetters.TAG)));
    }

    /** Bulk index into Elasticsearch; returns the indexed documents and the dead letters. */
    public static Output<ImportedEvent> indexDocuments(DataStream<ImportedEvent> imported,
            BulkWriter<ImportedEvent> index, IndexSettings options) {
        SingleOutputStreamOperator<ImportedEvent> indexed = imported
                .transform("Index in Elasticsearch", IMPORTED, new BulkWriteOperator<>("index", index,
                        options.batchSize, options.batchBytes, options.flushInterval, Stages::estimatedBytes))
                .uid("index.elasticsearch-writer");
        return new Output<>(indexed, indexed.getSideOutput(DeadLetters.TAG));
    }

    /** Decodes the imported topic. */
    public static Output<ImportedEvent> decodeImported(DataStream<RawRecord> imported, AvroCodec<ImportedEvent> codec) {
        SingleOutputStreamOperator<ImportedEvent> decoded = imported
                .process(new DecodeFunction<>("index", codec::decode, ImportedEvent.class)).uid("index.decode").name("Decode imported");
        return new Output<>(decoded, decoded.getSideOutput(DeadLetters.TAG));
    }

    /** A cheap estimate of a document's size in a bulk request (no serialization on the hot path). */
    static long estimatedBytes(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        return 256 + 2L * (document.getTitle().length() + event.getPath().length())
                + 48L * document.getProperties().size();
    }
}
