package io.volumizer.jobs.imports;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.jobs.internal.kafka.ProgressMarkWriter;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.options.steps.ImportOptions;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;

/**
 * Imports document events into MongoDB ({@link ImportStage}), then publishes each imported document to the imported
 * topic, which feeds indexing.
 */
public record ImportJob(Source<RawRecord, ?, ?> documents, ProgressMarkWriter progressMarks, ImportStage stage, Sink<ImportedEvent> imported,
        Sink<DeadLetter> deadLetters) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        progressMarks.addTo(env, "import");
        StageOutput<ImportedEvent> output = stage.apply(env, documents);
        output.stream().sinkTo(imported).uid("import.imported-sink").name("Imported to Kafka");
        output.deadLetters().sinkTo(deadLetters).uid("import.deadletter-sink").name("Dead letters to Kafka");
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.IMPORT, new ImportOptions(), args, options -> {
            var pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic(), pipeline.importedTopic(), pipeline.deadletterTopic());
            return new ImportJob(ThrottledSource.of(Connectors.rawSource(pipeline, pipeline.documentsTopic(), options.groupId()),
                            options, Step.IMPORT, 1, MetricNames.IMPORT),
                    Connectors.progressMarks(pipeline, pipeline.documentsTopic(), options.settings.progressMarkInterval),
                    ImportStage.onMongoDb(pipeline, options.settings)
                            .readingPartitions(Connectors.partitionCount(pipeline, pipeline.documentsTopic())),
                    Connectors.exactlyOnceSink(pipeline, Step.IMPORT, pipeline.importedTopic(), ImportedEvent.class,
                            e -> e.getDocument().getId()),
                    Connectors.deadLetterSink(pipeline, Step.IMPORT));
        });
    }
}
