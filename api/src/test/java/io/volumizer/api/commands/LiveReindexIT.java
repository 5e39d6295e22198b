package io.volumizer.api.commands;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;

import io.volumizer.generators.render.FileText;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.jobs.testing.LiveRun;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.ops.throttle.ThrottleSettings.Change;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;

/**
 * A reindex of a live repository while its text job writes: a document the reindex read before its text was stored
 * gets its text in the new index all the same (the reindex reads the file of a document it finds without one), so
 * no text is lost with the old index.
 */
class LiveReindexIT {

    private static final String LIVE = LiveRun.REPOSITORY;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CUSTOMERS = 20;
    private static final int STATEMENTS = 6;
    private static final Duration LONG = Duration.ofMinutes(4);
    /** Longer than a batch the reindex read before it paused waits to be written (the index's flush interval, 1 s). */
    private static final Duration FLUSHED = Duration.ofSeconds(3);

    private LiveRun live;
    private ScopedRun it;
    private SearchEngine search;
    private Commands commands;
    private CommandAwait awaitCommand;

    @BeforeEach
    void configure(@TempDir Path folder) throws IOException {
        live = new LiveRun(folder);
        it = live.it;
        search = live.search;
        commands = new Commands(ScopedRun.FLINK, JobsJar.path(), MongoRepositories.sharing(it.mongo,
                it.pipeline.mongodb.database), search, it.pipeline.indices(), it.args(), it.pipeline.kafka.clientProperties());
        awaitCommand = new CommandAwait(commands, LONG);
    }

    @AfterEach
    void cleanUp() throws Exception {
        live.close();
    }

    @Test
    void textsStoredAfterTheReindexReadTheirDocumentsAreInTheNewIndex() throws Exception {
        List<DocumentEvent> generated = it.generated(CUSTOMERS, STATEMENTS);
        List<DocumentEvent> readable = generated.stream().filter(d -> FileText.readable(d.getBlob())).toList();
        long total = generated.size();
        it.submit(Step.IMPORT, it.args("--group-id", "it-import-" + it.run), null);
        it.submit(Step.INDEX, it.args("--index-group-id", "it-index-" + it.run, "--file-text", "none"), null);
        it.generate(CUSTOMERS, STATEMENTS);
        await("documents in MongoDB", () -> collection().countDocuments(), total, LONG);
        await("documents in Elasticsearch", () -> it.stores.elasticsearchCount(LIVE), total, LONG);
        String before = search.indices(it.pipeline.indices()).current(LIVE).orElseThrow();

        // The reindex reads statements, without their text yet, then waits (paused) while the text job stores and
        // indexes every text: into MongoDB and the old index only, where the alias still points. Its catch-up reads
        // from a second before its start: it takes nothing imported before again.
        String id = commands.reindex(LIVE, List.of("--range-size", "20", "--read-batch-size", "10",
                "--max-docs-per-second", "20", "--catch-up-margin", "PT1S"));
        JsonNode started = awaitCommand.status(id, s -> s.hasNonNull("index") && s.hasNonNull("jobId"), "its job");
        String generation = started.path("index").asText();
        String reindexJob = started.path("jobId").asText();
        await("statements in the new index", () -> Math.min(statementsIn(generation), 10), 10, LONG);
        ThrottleSettings throttles = new ThrottleSettings(it.pipeline.kafka.clientProperties(), it.pipeline.registry.url,
                it.pipeline.controlTopic(), it.pipeline.topicSettings);
        throttles.change(id, new Change.Paused(true), "LiveReindexIT");
        await("every reader of the reindex paused", () -> metric(reindexJob, MetricNames.THROTTLE_PAUSED),
                it.pipeline.parallelism, LONG);
        Thread.sleep(FLUSHED.toMillis());
        long readWithoutText = statementsIn(generation);
        it.submit(Step.INDEX, it.args("--index-group-id", "it-file-text-" + it.run, "--file-text", "only"), null);
        await("texts stored", () -> it.stores.storedFileTexts(LIVE), readable.size(), LONG);
        await("texts in the old index", () -> it.stores.searchableFileTexts(it.pipeline.indices(), LIVE),
                readable.size(), LONG);
        assertThat(commands.status(id).path("state").asText()).as("still reading, paused").isEqualTo("RUNNING");
        assertThat(search.indices(it.pipeline.indices()).current(LIVE)).as("the alias not moved yet").contains(before);
        await("files the reindex read itself", () -> Math.min(metric(reindexJob, MetricNames.FILE_TEXT_EXTRACTED),
                readWithoutText), readWithoutText, LONG);
        throttles.change(id, new Change.Paused(false), "LiveReindexIT");

        JsonNode status = awaitCommand.end(id);
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(search.indices(it.pipeline.indices()).current(LIVE)).as("the alias moved").contains(generation);
        assertThat(it.stores.searchableFileTexts(it.pipeline.indices(), LIVE)).as("every text in the new index")
                .isEqualTo(readable.size());
        assertThat(it.stores.elasticsearchCount(LIVE)).isEqualTo(total);
        assertThat(it.deadLetters()).isZero();
    }

    /** A metric of a job, summed over its subtasks. */
    private static long metric(String jobId, String name) throws IOException, InterruptedException {
        return (long) PrometheusScrape.of(ScopedRun.FLINK_METRICS).sum(MetricNames.prometheusName(name),
                Map.of(MetricNames.JOB_ID_LABEL, jobId));
    }

    /** The statements a reindex wrote into {@code generation} so far. */
    private long statementsIn(String generation) throws IOException {
        search.indices(it.pipeline.indices()).refresh(generation);
        ObjectNode statements = JSON.createObjectNode();
        statements.putObject("term").put(DocumentFields.TYPE, "Statement");
        return search.reader().count(List.of(generation), statements);
    }

    private MongoCollection<Document> collection() {
        return it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(LIVE);
    }
}
