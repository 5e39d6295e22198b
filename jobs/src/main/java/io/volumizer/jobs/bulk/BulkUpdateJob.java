package io.volumizer.jobs.bulk;

import java.time.Instant;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.bson.Document;


import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;

/**
 * A bulk command: the documents a selection finds in the index (slices of one point in time, or sliced scrolls:
 * {@link ReadSlice}), each read from MongoDB and changed into an event on the documents topic
 * ({@link ApplyBulkAction}), exactly once, keyed by parent id like every other event: the running import applies
 * them and the index follows. The counts go to the command's record as checkpoints complete ({@link FinishBulk}),
 * and the job ends with the command APPLYING.
 */
public record BulkUpdateJob(Source<Long, ?, ?> slices, ReadSlice readSlice, ApplyBulkAction apply, FinishBulk finish,
        Sink<DocumentEvent> documents) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        SingleOutputStreamOperator<DocumentEvent> changes = env
                .fromSource(slices, WatermarkStrategy.noWatermarks(), "Slices").uid("bulk.slices")
                .rebalance()
                .flatMap(readSlice).uid("bulk.read-slice").name("Read the selection (point in time or sliced scroll)")
                .transform("Change each document", TypeInformation.of(DocumentEvent.class), apply).uid("bulk.apply");
        changes.sinkTo(documents).uid("bulk.documents-sink").name("Documents to Kafka");
        changes.getSideOutput(ApplyBulkAction.COUNTS)
                .transform("Count", TypeInformation.of(Void.class), finish).uid("bulk.finish").setParallelism(1)
                .setMaxParallelism(1).sinkTo(new DiscardingSink<>()).uid("bulk.end").name("End").setParallelism(1);
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.BULK_UPDATE, new BulkUpdateOptions(), args, options -> {
            PipelineOptions pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic());
            Instant commandTime = begin(options);
            return new BulkUpdateJob(new NumberSequenceSource(0, options.slices - 1),
                    new ReadSlice(SearchConnection.of(pipeline), options.repository,
                            options.selection().filters(), options.slices, options.scrollSize, options.scrollKeepAlive,
                            MongoConnection.of(pipeline), options.commandId, Backoff.DEFAULT),
                    new ApplyBulkAction(MongoConnection.of(pipeline), options.repository,
                            options.commandId, options.action, options.propertyValues(), commandTime, 500, Backoff.DEFAULT,
                            pipeline.topology.topology().orElse(null), pipeline.repositoryBlobStores()),
                    new FinishBulk(MongoConnection.of(pipeline), SearchConnection.of(pipeline), options.commandId,
                            pipeline.kafka.clientProperties(), pipeline.documentsTopic()),
                    Connectors.exactlyOnceSink(options, Step.BULK_UPDATE, pipeline.documentsTopic(), DocumentEvent.class,
                            DocumentKeys::parentKey));
        });
    }

    private static Instant begin(BulkUpdateOptions options) {
        return CommandRecords.begin(options, options.action.name(),
                new Document(CommandStore.QUERY, new Document(options.selection().filters()))
                        .append(CommandStore.PARAMS, new Document("properties", new Document(options.propertyValues()))));
    }
}
