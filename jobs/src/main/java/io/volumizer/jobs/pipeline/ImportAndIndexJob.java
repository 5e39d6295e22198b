package io.volumizer.jobs.pipeline;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import io.volumizer.jobs.imports.ParentLookup;
import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobDefaults;
import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.jobs.internal.stores.ElasticsearchBulkWriter;
import io.volumizer.jobs.internal.stores.MongoBulkWriter;
import io.volumizer.jobs.internal.stores.MongoParentLookup;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.Backoff;

/**
 * Import then index in one job graph: the import job's operators chained straight into the index job's writer,
 * with no imported topic in between (one job to operate, one hop less); the uids are those of the two jobs.
 */
public final class ImportAndIndexJob {

    public static final String NAME = "volumizer-import-and-index";

    private final Source<RawRecord, ?, ?> documents;
    private final AvroCodec<DocumentEvent> codec;
    private final ParentLookup lookup;
    private final BulkWriter<ImportedEvent> repository;
    private final BulkWriter<ImportedEvent> index;
    private final Sink<DeadLetter> deadLetters;
    private final ImportAndIndexOptions options;

    public ImportAndIndexJob(Source<RawRecord, ?, ?> documents, AvroCodec<DocumentEvent> codec, ParentLookup lookup,
            BulkWriter<ImportedEvent> repository, BulkWriter<ImportedEvent> index, Sink<DeadLetter> deadLetters,
            ImportAndIndexOptions options) {
        this.documents = documents;
        this.codec = codec;
        this.lookup = lookup;
        this.repository = repository;
        this.index = index;
        this.deadLetters = deadLetters;
        this.options = options;
    }

    public JobExecutionResult run(StreamExecutionEnvironment env) throws Exception {
        JobDefaults.apply(env, options.pipeline.checkpointInterval.toMillis());
        var source = env.fromSource(documents, WatermarkStrategy.noWatermarks(), "Documents")
                .uid("import.documents-source");
        Stages.Output<ImportedEvent> imported = Stages.importDocuments(source, codec, lookup, repository,
                options.importSettings);
        Stages.Output<ImportedEvent> indexed = Stages.indexDocuments(imported.stream(), index, options.indexSettings);
        indexed.stream().sinkTo(new DiscardingSink<>()).uid("index.indexed").name("Indexed");
        imported.deadLetters().union(indexed.deadLetters()).sinkTo(deadLetters).uid("import.deadletter-sink")
                .name("Dead letters to Kafka");
        return env.execute(NAME);
    }

    public static void main(String[] args) throws Exception {
        ImportAndIndexOptions options = JobOptions.parse(new ImportAndIndexOptions(), args);
        if (options == null) {
            return;
        }
        var pipeline = options.pipeline;
        Connectors.ensureTopics(pipeline, pipeline.documentsTopic, pipeline.deadletterTopic);
        var codec = Connectors.codec(pipeline, pipeline.documentsTopic, DocumentEvent.class);
        var importedCodec = Connectors.codec(pipeline, pipeline.importedTopic, ImportedEvent.class);
        ElasticsearchBulkWriter index = new ElasticsearchBulkWriter(pipeline.elasticsearchUrl, pipeline.indexPrefix,
                Backoff.DEFAULT, importedCodec);
        index.ensureTemplate();
        new ImportAndIndexJob(Connectors.rawSource(pipeline, pipeline.documentsTopic, options.importSettings.groupId),
                codec, new MongoParentLookup(pipeline.mongodbUri, pipeline.mongodbDatabase),
                new MongoBulkWriter(pipeline.mongodbUri, pipeline.mongodbDatabase, Backoff.DEFAULT, codec), index,
                Connectors.deadLetterSink(pipeline, "volumizer-import-and-index-"), options).run(Connectors.environment(pipeline));
    }
}
