package io.volumizer.jobs.generate;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobDefaults;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * Generates a seeded run into the documents topic. The source splits the generator's index range among subtasks
 * and checkpoints its position, so the job is parallel, resumable and replays the same documents.
 */
public final class GenerateJob {

    public static final String NAME = "volumizer-generate";

    private final Source<Long, ?, ?> indices;
    private final GeneratorSettings settings;
    private final Sink<DocumentEvent> documents;
    private final long checkpointIntervalMillis;

    public GenerateJob(Source<Long, ?, ?> indices, GeneratorSettings settings, Sink<DocumentEvent> documents,
            long checkpointIntervalMillis) {
        this.indices = indices;
        this.settings = settings;
        this.documents = documents;
        this.checkpointIntervalMillis = checkpointIntervalMillis;
    }

    public JobExecutionResult run(StreamExecutionEnvironment env) throws Exception {
        JobDefaults.apply(env, checkpointIntervalMillis);
        env.fromSource(indices, WatermarkStrategy.noWatermarks(), "Generator indices").uid("generate.indices")
                .flatMap(new GenerateDocuments(settings)).uid("generate.documents").name("Generate documents")
                .sinkTo(documents).uid("generate.documents-sink").name("Documents to Kafka");
        return env.execute(NAME + " " + settings.repository() + " seed " + settings.seed());
    }

    /** Indices [from, to) of a run, as a parallel, checkpointed source, optionally rate-limited. */
    public static DataGeneratorSource<Long> indices(long from, long to, double maxIndicesPerSecond) {
        RateLimiterStrategy rate = maxIndicesPerSecond > 0 ? RateLimiterStrategy.perSecond(maxIndicesPerSecond)
                : RateLimiterStrategy.noOp();
        return new DataGeneratorSource<>(index -> from + index, to - from, rate, Types.LONG);
    }

    public static void main(String[] args) throws Exception {
        GenerateOptions options = JobOptions.parse(new GenerateOptions(), args);
        if (options == null) {
            return;
        }
        var pipeline = options.pipeline;
        Connectors.ensureTopics(pipeline, pipeline.documentsTopic);
        var sink = Connectors.exactlyOnceSink(pipeline, pipeline.documentsTopic,
                Connectors.codec(pipeline, pipeline.documentsTopic, DocumentEvent.class), DocumentKeys::parentKey,
                "volumizer-generate-" + pipeline.documentsTopic);
        new GenerateJob(indices(options.fromIndex(), options.toIndex(), options.maxIndicesPerSecond()), options.settings(), sink,
                pipeline.checkpointInterval.toMillis()).run(Connectors.environment(pipeline));
    }
}
