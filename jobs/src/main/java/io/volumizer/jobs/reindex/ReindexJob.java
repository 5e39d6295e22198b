package io.volumizer.jobs.reindex;

import java.io.IOException;
import java.time.Instant;
import java.util.Date;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.bson.Document;

import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Updates;

import io.volumizer.jobs.index.IndexStage;
import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.sinks.mongodb.MongoDriverRelease;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.ReindexOptions;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.jobs.reindex.source.MongoRangeSource;
import io.volumizer.jobs.reindex.source.RangeSettings;

/**
 * Reindexes a repository: its MongoDB documents read by id ranges ({@link MongoRangeSource}), written by the index
 * stage into a new generation of its index, then the alias moved ({@link FinishReindex}). The on-the-fly index job
 * keeps writing to the alias meanwhile; searches answer from the old index until the move.
 */
public record ReindexJob(Source<ImportedEvent, ?, ?> documents, IndexStage index, FinishReindex finish,
        Sink<DeadLetter> deadLetters) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        // The finish runs in one task once every range was written, and no checkpoint completes while it runs: the
        // barriers queue behind its end of input. One expiring then (a catch-up's scan can outlast the timeout) must
        // not fail the job over, which would only start the finish again; a real failure meanwhile restarts from
        // the checkpoint before it, and the finish, idempotent, runs again whole.
        env.getCheckpointConfig().setTolerableCheckpointFailureNumber(Integer.MAX_VALUE);
        DataStream<ImportedEvent> stored = env.fromSource(documents, WatermarkStrategy.noWatermarks(), "Stored documents")
                .uid("reindex.mongodb-source");
        StageOutput<ImportedEvent> indexed = index.apply(stored);
        indexed.stream().sinkTo(new DiscardingSink<>()).uid("reindex.indexed").name("Indexed");
        indexed.deadLetters()
                .transform("Finish: catch up, move the alias", TypeInformation.of(DeadLetter.class), finish)
                .uid("reindex.finish").setParallelism(1).setMaxParallelism(1)
                .sinkTo(deadLetters).uid("reindex.deadletter-sink").name("Dead letters to Kafka").setParallelism(1);
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.REINDEX, new ReindexOptions(), args, options -> {
            PipelineOptions pipeline = options.pipeline;
            Connectors.ensureTopics(pipeline, pipeline.deadletterTopic());
            AvroCodec<ImportedEvent> codec = Connectors.codec(pipeline, pipeline.importedTopic(), ImportedEvent.class);
            String generation = begin(options);
            RangeSettings settings = new RangeSettings(pipeline.repositoryDatabases(), options.repository,
                    options.commandId, options.rangeSize, options.readBatchSize, options.maxDocsPerSecond, options.retryFailed,
                    options.failRange,
                    Backoff.DEFAULT);
            return new ReindexJob(ThrottledSource.of(new MongoRangeSource(settings), options, Step.REINDEX,
                            1, MetricNames.REINDEX),
                    IndexStage.intoGeneration(generation, pipeline, options.settings),
                    new FinishReindex(settings, new FinishReindex.Finish(generation, options.catchUpMargin,
                            options.settings.batchSize, options.deleteOld,
                            options.holdCatchUp), SearchConnection.of(pipeline), codec),
                    Connectors.deadLetterSink(options, Step.REINDEX));
        });
    }

    /**
     * The command's record, RUNNING, and the index it fills: on its first run a new generation (from the template,
     * with bulk-load settings) and where the catch-up will start; a resumed or retried run finds both recorded.
     */
    static String begin(ReindexOptions options) throws IOException {
        PipelineOptions pipeline = options.pipeline;
        try (MongoRepositories mongo = new MongoRepositories(pipeline.repositoryDatabases(), MongoClients::create);
                SearchEngine search = SearchEngines.open(pipeline.search)) {
            CommandStore commands = new CommandStore(mongo.shared());
            commands.createIfAbsent(options.commandId, CommandStore.REINDEX, options.repository,
                    new Document(CommandStore.PARAMS, new Document("rangeSize", options.rangeSize)
                            .append("deleteOld", options.deleteOld)));
            Document record = commands.find(options.commandId).orElseThrow();
            String generation = record.getString(CommandStore.INDEX);
            if (generation != null) {
                commands.state(options.commandId, CommandStore.State.RUNNING);
                return generation;
            }
            SearchIndices indices = search.indices(pipeline.indices(), pipeline.indexLayouts());
            indices.installTemplate();
            // The importedAt index the catch-up reads by, on a collection imported before it existed.
            new MongoDocumentStore(mongo, Backoff.DEFAULT).ensureIndexes(options.repository);
            Instant catchUpFrom = Instant.now().minus(options.catchUpMargin);
            long estimated = mongo.collection(options.repository).estimatedDocumentCount();
            generation = indices.createForReindex(options.repository);
            commands.state(options.commandId, CommandStore.State.RUNNING, Updates.set(CommandStore.INDEX, generation),
                    Updates.set(CommandStore.PREVIOUS_INDEX, indices.current(options.repository).orElse(null)),
                    Updates.set(CommandStore.CATCH_UP_FROM, Date.from(catchUpFrom)),
                    Updates.set(CommandStore.TOTAL, estimated));
            return generation;
        } finally {
            MongoDriverRelease.stopBufferPoolPruner(); // main() runs in the JobManager, in a class loader of its own
        }
    }
}
