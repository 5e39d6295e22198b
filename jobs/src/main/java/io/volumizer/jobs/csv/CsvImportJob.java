package io.volumizer.jobs.csv;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.jobs.csv.source.CsvRow;
import io.volumizer.jobs.csv.source.CsvInputs;
import io.volumizer.jobs.csv.source.CsvSource;
import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.JobMains;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.jobs.internal.throttle.ThrottledSource;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.CsvImportOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;

/**
 * Imports CSV files: their rows, read by byte ranges ({@link CsvSource}) by {@code readers} subtasks (one: in file
 * order), become document events on the repository's documents topic, exactly once and keyed by parent id like the
 * generator's, so the running import and index take them as they take any other; rows that cannot become documents
 * go to the dead-letter topic with their line. A bounded job: it finishes when every row is read. It obeys the
 * {@code import-csv} throttle.
 *
 * <p>Every operator runs at {@code readers}, chained: a reader's rows are written by its own producer in the order
 * it read them. Spread over more writers, a root and its first children (one key, one partition) could reach the
 * topic in either order, and the import reads a key's records in the order they were written.
 */
public record CsvImportJob(Source<CsvRow, ?, ?> rows, int readers, ToDocuments toDocuments,
        Sink<DocumentEvent> documents, Sink<DeadLetter> deadLetters) implements JobMains.Job {

    @Override
    public void build(StreamExecutionEnvironment env) {
        SingleOutputStreamOperator<DocumentEvent> events = env
                .fromSource(rows, WatermarkStrategy.noWatermarks(), "CSV rows").uid("csv.rows").setParallelism(readers)
                .process(toDocuments).uid("csv.documents").name("Rows to documents").setParallelism(readers);
        events.sinkTo(documents).uid("csv.documents-sink").name("Documents to Kafka").setParallelism(readers);
        events.getSideOutput(DeadLetters.TAG).sinkTo(deadLetters).uid("csv.dead-letters").name("Dead letters to Kafka")
                .setParallelism(readers);
    }

    public static void main(String[] args) throws Exception {
        JobMains.run(Step.IMPORT_CSV, new CsvImportOptions(), args, options -> {
            PipelineOptions pipeline = options.pipeline;
            CsvInputs inputs = CsvInputs.of(options.path, pipeline.blobs);
            // Said at submission, not by a job restarting on a path it cannot read.
            List<CsvInputs.Input> files;
            try {
                files = inputs.list();
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("--path " + options.path + " cannot be read: " + e, e);
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException("--path " + options.path + ": no CSV file there");
            }
            Connectors.ensureTopics(pipeline, pipeline.documentsTopic(), pipeline.deadletterTopic());
            return new CsvImportJob(
                    ThrottledSource.of(new CsvSource(inputs, options.splitSize),
                            options, Step.IMPORT_CSV, 1, MetricNames.CSV_IMPORT),
                    options.readers,
                    new ToDocuments(options.repository, Instant.now(), options.blobs, MongoConnection.of(pipeline),
                            pipeline.repositoryBlobStores()),
                    Connectors.exactlyOnceSink(options, Step.IMPORT_CSV, pipeline.documentsTopic(), DocumentEvent.class,
                            DocumentKeys::parentKey),
                    Connectors.deadLetterSink(options, Step.IMPORT_CSV));
        });
    }
}
