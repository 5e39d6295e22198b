package io.volumizer.jobs.generate;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.options.steps.GenerateOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;

/**
 * Generates a seeded run into the documents topic. The source splits the generator's index range among subtasks
 * and checkpoints its position, so the job is parallel, resumable and replays the same documents.
 */
public record GenerateJob(Source<Long, ?, ?> indices, Sink<DocumentEvent> documents, GenerateOptions options) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        env.fromSource(indices, WatermarkStrategy.noWatermarks(), "Generator indices").uid("generate.indices")
                .flatMap(new GenerateDocuments(options.settings(), options.topology())).uid("generate.documents").name("Generate documents")
                .sinkTo(documents).uid("generate.documents-sink").name("Documents to Kafka");
    }

    /** The step's run name, and the run's seed. */
    @Override
    public String runName(String stepRunName) {
        return stepRunName + " seed " + options.settings().seed();
    }

    /** Indices [from, to) of a run, as a parallel, checkpointed source, optionally rate-limited. */
    public static DataGeneratorSource<Long> indices(long from, long to, double maxIndicesPerSecond) {
        RateLimiterStrategy rate = maxIndicesPerSecond > 0 ? RateLimiterStrategy.perSecond(maxIndicesPerSecond)
                : RateLimiterStrategy.noOp();
        return new DataGeneratorSource<>(index -> from + index, to - from, rate, Types.LONG);
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.GENERATE, new GenerateOptions(), args, options -> {
            var pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic());
            return new GenerateJob(indices(options.fromIndex(), options.toIndex(), options.maxIndicesPerSecond()),
                    Connectors.exactlyOnceSink(pipeline, Step.GENERATE, pipeline.documentsTopic(), DocumentEvent.class,
                            DocumentKeys::parentKey), options);
        });
    }
}
