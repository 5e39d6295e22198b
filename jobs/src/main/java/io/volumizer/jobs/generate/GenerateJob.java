package io.volumizer.jobs.generate;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.options.steps.GenerateOptions;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;

/**
 * Generates a seeded run into the documents topic. The source splits the run's customers among subtasks and
 * checkpoints its position, so the job is parallel, resumable and replays the same documents; each customer's
 * documents come from one subtask, parents first. (Split by generator index instead, as it once was, a subtask's
 * range began inside a customer: its first records were statements whose account the other subtask sent minutes
 * later, at a capped rate, past the import's wait for a parent.)
 */
public record GenerateJob(Source<Long, ?, ?> customers, Sink<DocumentEvent> documents, GenerateOptions options) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        env.fromSource(customers, WatermarkStrategy.noWatermarks(), "Generator customers").uid("generate.customers")
                .flatMap(new GenerateDocuments(options.settings(), options.topology())).uid("generate.documents").name("Generate documents")
                .sinkTo(documents).uid("generate.documents-sink").name("Documents to Kafka");
    }

    /** The step's run name, and the run's seed. */
    @Override
    public String runName(String stepRunName) {
        return stepRunName + " seed " + options.settings().seed();
    }

    /** Customers [from, to) of a run, as a parallel, checkpointed source, optionally rate-limited. */
    public static DataGeneratorSource<Long> customers(long from, long to, double maxCustomersPerSecond) {
        RateLimiterStrategy rate = maxCustomersPerSecond > 0 ? RateLimiterStrategy.perSecond(maxCustomersPerSecond)
                : RateLimiterStrategy.noOp();
        return new DataGeneratorSource<>(customer -> from + customer, to - from, rate, Types.LONG);
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.GENERATE, new GenerateOptions(), args, options -> {
            var pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic());
            return new GenerateJob(ThrottledSource.of(customers(options.fromCustomer, options.endCustomer(),
                            options.maxCustomersPerSecond()), options, Step.GENERATE, options.docsPerCustomer(),
                            MetricNames.GENERATE),
                    Connectors.exactlyOnceSink(pipeline, Step.GENERATE, pipeline.documentsTopic(), DocumentEvent.class,
                            DocumentKeys::parentKey), options);
        });
    }
}
