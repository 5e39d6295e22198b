package io.volumizer.jobs.smoke;

import java.nio.charset.StandardCharsets;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;

import io.volumizer.jobs.internal.JobDefaults;
import io.volumizer.options.Options;
import io.volumizer.options.steps.SmokeOptions;
import io.volumizer.options.steps.Step;

/**
 * The smallest job that exercises what every Volumizer job relies on: a checkpointed source, keyed state, a Kafka
 * sink and stable operator uids, so it can be stopped with a savepoint and resumed with its state.
 */
public record SmokeJob(Source<Long, ?, ?> sequence, Sink<String> counts, SmokeOptions options) {

    public JobExecutionResult run(StreamExecutionEnvironment env) throws Exception {
        JobDefaults.apply(env, options.checkpoints);
        int keys = options.keys;
        env.fromSource(sequence, WatermarkStrategy.noWatermarks(), "Sequence").uid("smoke.sequence")
                .keyBy(element -> element % keys)
                .process(new CountPerKey()).uid("smoke.count-per-key").name("Count per key")
                .sinkTo(counts).uid("smoke.counts-sink").name("Counts to Kafka");
        return env.execute(Step.SMOKE.jobName());
    }

    public static void main(String[] args) throws Exception {
        SmokeOptions options = Options.parse(new SmokeOptions(), args);
        if (options == null) {
            return;
        }
        RateLimiterStrategy rate = options.recordsPerSecond > 0
                ? RateLimiterStrategy.perSecond(options.recordsPerSecond) : RateLimiterStrategy.noOp();
        DataGeneratorSource<Long> sequence = new DataGeneratorSource<>(index -> index, options.recordsOrUnbounded(),
                rate, Types.LONG);
        String topic = options.topic;
        KafkaSink<String> counts = KafkaSink.<String>builder()
                .setKafkaProducerConfig(options.kafka.clientProperties())
                .setBootstrapServers(options.kafka.bootstrapServers)
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .setRecordSerializer((KafkaRecordSerializationSchema<String>) (line, context, timestamp) ->
                        new ProducerRecord<>(topic, line.substring(0, line.indexOf(',')).getBytes(StandardCharsets.UTF_8),
                                line.getBytes(StandardCharsets.UTF_8)))
                .build();
        new SmokeJob(sequence, counts, options).run(StreamExecutionEnvironment.getExecutionEnvironment());
    }
}
