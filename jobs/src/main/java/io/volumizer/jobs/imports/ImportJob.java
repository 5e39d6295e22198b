package io.volumizer.jobs.imports;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobDefaults;
import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.jobs.internal.stores.MongoBulkWriter;
import io.volumizer.jobs.internal.stores.MongoParentLookup;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.pipeline.Stages;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.Backoff;

/**
 * Imports document events into MongoDB: decode, resolve ancestors through the parent cache (keyed by parent id),
 * bulk upsert, then publish each imported document to the imported topic, which feeds indexing.
 */
public final class ImportJob {

    public static final String NAME = "volumizer-import";

    private final Source<RawRecord, ?, ?> documents;
    private final AvroCodec<DocumentEvent> codec;
    private final ParentLookup lookup;
    private final BulkWriter<ImportedEvent> repository;
    private final Sink<ImportedEvent> imported;
    private final Sink<DeadLetter> deadLetters;
    private final ImportOptions options;

    public ImportJob(Source<RawRecord, ?, ?> documents, AvroCodec<DocumentEvent> codec, ParentLookup lookup,
            BulkWriter<ImportedEvent> repository, Sink<ImportedEvent> imported, Sink<DeadLetter> deadLetters,
            ImportOptions options) {
        this.documents = documents;
        this.codec = codec;
        this.lookup = lookup;
        this.repository = repository;
        this.imported = imported;
        this.deadLetters = deadLetters;
        this.options = options;
    }

    public JobExecutionResult run(StreamExecutionEnvironment env) throws Exception {
        JobDefaults.apply(env, options.pipeline.checkpointInterval.toMillis());
        var source = env.fromSource(documents, WatermarkStrategy.noWatermarks(), "Documents")
                .uid("import.documents-source");
        Stages.Output<ImportedEvent> output = Stages.importDocuments(source, codec, lookup, repository, options.settings);
        output.stream().sinkTo(imported).uid("import.imported-sink").name("Imported to Kafka");
        output.deadLetters().sinkTo(deadLetters).uid("import.deadletter-sink").name("Dead letters to Kafka");
        return env.execute(NAME);
    }

    public static void main(String[] args) throws Exception {
        ImportOptions options = JobOptions.parse(new ImportOptions(), args);
        if (options == null) {
            return;
        }
        var pipeline = options.pipeline;
        Connectors.ensureTopics(pipeline, pipeline.documentsTopic, pipeline.importedTopic, pipeline.deadletterTopic);
        var codec = Connectors.codec(pipeline, pipeline.documentsTopic, DocumentEvent.class);
        new ImportJob(Connectors.rawSource(pipeline, pipeline.documentsTopic, options.settings.groupId), codec,
                new MongoParentLookup(pipeline.mongodbUri, pipeline.mongodbDatabase),
                new MongoBulkWriter(pipeline.mongodbUri, pipeline.mongodbDatabase, Backoff.DEFAULT, codec),
                Connectors.exactlyOnceSink(pipeline, pipeline.importedTopic,
                        Connectors.codec(pipeline, pipeline.importedTopic, ImportedEvent.class),
                        e -> e.getDocument().getId(), "volumizer-import-" + pipeline.importedTopic),
                Connectors.deadLetterSink(pipeline, "volumizer-import-"), options).run(Connectors.environment(pipeline));
    }
}
