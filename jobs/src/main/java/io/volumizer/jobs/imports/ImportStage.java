package io.volumizer.jobs.imports;

import java.util.List;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.ImportSettings;
import io.volumizer.domain.topology.Topology;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.sinks.blob.BlobSink;
import io.volumizer.sinks.bulk.BulkSink;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.mongodb.MongoSinkBuilder;

/**
 * The import stage as a fragment of a job graph, with its operators' uids: the documents source (its progress
 * marks advance event time, then are dropped) → keyed by the record key (the parent id) → decode and resolve ancestors → [store blobs] → bulk upsert into MongoDB. The import
 * job and the import-and-index job both apply it, so a savepoint of one restores into the same operators in the
 * other. Records cross the shuffle as the bytes Kafka delivered and are decoded after it, once.
 */
public final class ImportStage {

    private final AvroCodec<DocumentEvent> codec;
    private final ParentLookup lookup;
    private final BulkSink<ImportedEvent> repository;
    private final ImportSettings settings;
    private final RepositoryBlobStores blobStores;
    /** The documents topic's partitions when the job was built, or 0 if unknown. */
    private int partitions;

    /** @param blobStores where each repository's generated blobs are stored, if anywhere */
    public ImportStage(AvroCodec<DocumentEvent> codec, ParentLookup lookup, BulkSink<ImportedEvent> repository,
            ImportSettings settings, RepositoryBlobStores blobStores) {
        this.codec = codec;
        this.lookup = lookup;
        this.repository = repository;
        this.blobStores = blobStores;
        this.settings = settings;
    }

    /** The stage on the pipeline's real registry and MongoDB. */
    public static ImportStage onMongoDb(PipelineOptions pipeline, ImportSettings settings) {
        AvroCodec<DocumentEvent> codec = Connectors.codec(pipeline, pipeline.documentsTopic(), DocumentEvent.class);
        List<String> repositories = pipeline.topology.topology().map(Topology::repositories).orElse(List.of());
        return new ImportStage(codec, new MongoParentLookup(pipeline.repositoryDatabases(), repositories),
                new MongoSinkBuilder().setDatabases(pipeline.repositoryDatabases()).setDeadLetterCodec(codec)
                        .setStage(MetricNames.IMPORT).setBulkFlushMaxActions(settings.batchSize)
                        .setBulkFlushInterval(settings.flushInterval).build(),
                settings, pipeline.repositoryBlobStores());
    }

    /**
     * Reads the documents with at most {@code count} source subtasks: a subtask without a partition would hold the
     * watermark, and so every parent wait, back for good (Flink marks no such subtask idle, and a wall-clock
     * idleness would also pass over a partition whose broker is away).
     */
    public ImportStage readingPartitions(int count) {
        this.partitions = count;
        return this;
    }

    /** Adds the stage to {@code env}, reading {@code documents}; returns what MongoDB holds now, and the dead letters. */
    public StageOutput<ImportedEvent> apply(StreamExecutionEnvironment env, Source<RawRecord, ?, ?> documents) {
        boolean keyedByParent = settings.partitionBy == ImportSettings.PartitionBy.parent;
        // Event time is the producers' time (Kafka's record timestamps), per partition; the margin holds the
        // watermark back by as much as a parent may be written after its child (ResolveAncestors waits on it).
        WatermarkStrategy<RawRecord> progress = WatermarkStrategy.forBoundedOutOfOrderness(settings.parentWaitMargin);
        DataStreamSource<RawRecord> source = env.fromSource(documents, progress, "Documents");
        SingleOutputStreamOperator<RawRecord> read = source.uid("import.documents-source")
                .filter(record -> !record.progressMark).uid("import.progress-mark-filter").name("Drop progress marks");
        if (partitions > 0 && env.getParallelism() > partitions) {
            source.setParallelism(partitions);
            read.setParallelism(partitions);
        }
        SingleOutputStreamOperator<ImportedEvent> resolved = read
                .keyBy(keyedByParent ? (KeySelector<RawRecord, String>) RawRecord::keyText : RawRecord::position)
                .process(new ResolveAncestors(codec::decode, lookup, settings))
                .uid("import.parent-cache").name("Decode and resolve ancestors");
        DataStream<ImportedEvent> withBlobs = !blobStores.anyConfigured() ? resolved
                : new BlobSink(blobStores, MetricNames.IMPORT).writeFrom(resolved, "Store blobs")
                        .uid("import.blob-store");
        DataStream<ImportedEvent> toWrite = settings.injectFailureAt > 0
                ? withBlobs.map(InjectedFailure.at(settings.injectFailureAt)).uid("import.injected-failure")
                        .name("Injected failure") : withBlobs;
        SingleOutputStreamOperator<ImportedEvent> written = repository.writeFrom(toWrite, "Write to MongoDB")
                .uid("import.mongodb-writer");
        return new StageOutput<>(written, resolved.getSideOutput(DeadLetters.TAG).union(written.getSideOutput(DeadLetters.TAG)));
    }
}
