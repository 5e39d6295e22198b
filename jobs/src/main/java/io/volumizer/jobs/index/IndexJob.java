package io.volumizer.jobs.index;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobDefaults;
import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.jobs.internal.stores.ElasticsearchBulkWriter;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.pipeline.Stages;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.Backoff;

/** Indexes the imported topic into Elasticsearch, in bulk, with backoff on overload and dead letters. */
public final class IndexJob {

    public static final String NAME = "volumizer-index";

    private final Source<RawRecord, ?, ?> imported;
    private final AvroCodec<ImportedEvent> codec;
    private final BulkWriter<ImportedEvent> index;
    private final Sink<DeadLetter> deadLetters;
    private final IndexOptions options;

    public IndexJob(Source<RawRecord, ?, ?> imported, AvroCodec<ImportedEvent> codec, BulkWriter<ImportedEvent> index,
            Sink<DeadLetter> deadLetters, IndexOptions options) {
        this.imported = imported;
        this.codec = codec;
        this.index = index;
        this.deadLetters = deadLetters;
        this.options = options;
    }

    public JobExecutionResult run(StreamExecutionEnvironment env) throws Exception {
        JobDefaults.apply(env, options.pipeline.checkpointInterval.toMillis());
        var source = env.fromSource(imported, WatermarkStrategy.noWatermarks(), "Imported documents")
                .uid("index.imported-source");
        Stages.Output<ImportedEvent> decoded = Stages.decodeImported(source, codec);
        Stages.Output<ImportedEvent> indexed = Stages.indexDocuments(decoded.stream(), index, options.settings);
        indexed.stream().sinkTo(new DiscardingSink<>()).uid("index.indexed").name("Indexed");
        decoded.deadLetters().union(indexed.deadLetters()).sinkTo(deadLetters).uid("index.deadletter-sink")
                .name("Dead letters to Kafka");
        return env.execute(NAME);
    }

    public static void main(String[] args) throws Exception {
        IndexOptions options = JobOptions.parse(new IndexOptions(), args);
        if (options == null) {
            return;
        }
        var pipeline = options.pipeline;
        Connectors.ensureTopics(pipeline, pipeline.importedTopic, pipeline.deadletterTopic);
        var codec = Connectors.codec(pipeline, pipeline.importedTopic, ImportedEvent.class);
        ElasticsearchBulkWriter writer = new ElasticsearchBulkWriter(pipeline.elasticsearchUrl, pipeline.indexPrefix,
                Backoff.DEFAULT, codec);
        writer.ensureTemplate();
        new IndexJob(Connectors.rawSource(pipeline, pipeline.importedTopic, options.settings.groupId), codec, writer,
                Connectors.deadLetterSink(pipeline, "volumizer-index-"), options).run(Connectors.environment(pipeline));
    }
}
