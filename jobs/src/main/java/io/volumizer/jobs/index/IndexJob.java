package io.volumizer.jobs.index;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.jobs.internal.kafka.DecodeFunction;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.options.steps.IndexOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.options.conventions.MetricNames;

/** Indexes the imported topic into Elasticsearch ({@link IndexStage}). */
public record IndexJob(Source<RawRecord, ?, ?> imported, AvroCodec<ImportedEvent> codec, IndexStage stage,
        Sink<DeadLetter> deadLetters) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        SingleOutputStreamOperator<ImportedEvent> decoded = env
                .fromSource(imported, WatermarkStrategy.noWatermarks(), "Imported documents").uid("index.imported-source")
                .process(new DecodeFunction<>(MetricNames.INDEX, codec::decode, ImportedEvent.class))
                .uid("index.decode").name("Decode imported");
        StageOutput<ImportedEvent> indexed = stage.apply(decoded);
        indexed.stream().sinkTo(new DiscardingSink<>()).uid("index.indexed").name("Indexed");
        decoded.getSideOutput(DeadLetters.TAG).union(indexed.deadLetters()).sinkTo(deadLetters)
                .uid("index.deadletter-sink").name("Dead letters to Kafka");
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.INDEX, new IndexOptions(), args, options -> {
            var pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.importedTopic(), pipeline.deadletterTopic());
            return new IndexJob(ThrottledSource.of(Connectors.rawSource(pipeline, pipeline.importedTopic(), options.groupId()),
                            options, Step.INDEX, 1, MetricNames.INDEX),
                    Connectors.codec(pipeline, pipeline.importedTopic(), ImportedEvent.class),
                    IndexStage.onSearchEngine(pipeline, options.settings), Connectors.deadLetterSink(pipeline, Step.INDEX));
        });
    }
}
