package io.volumizer.jobs.pipeline;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import io.volumizer.jobs.imports.ImportStage;
import io.volumizer.jobs.index.IndexStage;
import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.jobs.internal.kafka.ProgressMarkWriter;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.options.steps.ImportAndIndexOptions;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;

/**
 * Import then index in one job graph: the import stage chained straight into the index stage, with no imported
 * topic in between (one job to operate, one hop less); the uids are those of the two separate jobs.
 */
public record ImportAndIndexJob(Source<RawRecord, ?, ?> documents, ProgressMarkWriter progressMarks, ImportStage importStage, IndexStage indexStage,
        Sink<DeadLetter> deadLetters) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        progressMarks.addTo(env, "import");
        StageOutput<ImportedEvent> imported = importStage.apply(env, documents);
        StageOutput<ImportedEvent> indexed = indexStage.apply(imported.stream());
        indexed.stream().sinkTo(new DiscardingSink<>()).uid("index.indexed").name("Indexed");
        imported.deadLetters().union(indexed.deadLetters()).sinkTo(deadLetters).uid("import.deadletter-sink")
                .name("Dead letters to Kafka");
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.IMPORT_AND_INDEX, new ImportAndIndexOptions(), args, options -> {
            var pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic(), pipeline.deadletterTopic());
            return new ImportAndIndexJob(ThrottledSource.of(Connectors.rawSource(pipeline, pipeline.documentsTopic(),
                            options.groupId()), options, Step.IMPORT_AND_INDEX, 1, MetricNames.IMPORT),
                    Connectors.progressMarks(pipeline, pipeline.documentsTopic(), options.importSettings.progressMarkInterval),
                    ImportStage.onMongoDb(pipeline, options.importSettings)
                            .readingPartitions(Connectors.partitionCount(pipeline, pipeline.documentsTopic())),
                    IndexStage.onSearchEngine(pipeline, options.indexSettings),
                    Connectors.deadLetterSink(pipeline, Step.IMPORT_AND_INDEX));
        });
    }
}
