package io.volumizer.api.commands;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;

import io.volumizer.generators.BankGenerator;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.api.commands.CommandRefusedException;
import io.volumizer.api.commands.Commands;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.jobs.JobsCommand;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.options.conventions.MetricNames;

/**
 * Reindex and bulk commands on a repository the pipeline keeps importing, run as a user runs them (the commands'
 * jobs on the session cluster), checked from the stores: the new index against MongoDB field by field, what was
 * imported meanwhile, a TaskManager killed mid-reindex, a failed range retried, an abort resumed, a bulk update
 * that changes exactly its selection and loses to a newer edit.
 */
class CommandsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CUSTOMERS = 60;
    private static final int STATEMENTS = 6;
    private static final Duration LONG = Duration.ofMinutes(4);

    private final LocalServices services = LocalServices.ofThisCheckout();
    private ScopedRun it;
    private Commands commands;
    private CommandAwait awaitCommand;
    private SearchEngine search;
    private MongoCollection<Document> documents;

    @BeforeEach
    void importARepository() throws Exception {
        it = new ScopedRun(JobsJar.path());
        search = SearchEngines.open(it.pipeline.search);
        commands = new Commands(ScopedRun.FLINK, JobsJar.path(), MongoRepositories.sharing(it.mongo, it.pipeline.mongodb.database),
                search, it.pipeline.indices(), it.args(), it.pipeline.kafka.clientProperties());
        awaitCommand = new CommandAwait(commands, LONG);
        documents = it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(it.repository);
        long total = it.generated(CUSTOMERS, STATEMENTS).size();
        it.generate(CUSTOMERS, STATEMENTS);
        it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-commands-" + it.run), null);
        await("documents in MongoDB", it::mongoCount, total, LONG);
        await("documents in Elasticsearch", it::elasticsearchCount, total, LONG);
    }

    @AfterEach
    void cleanUp() throws Exception {
        services.start("flink"); // back, whatever a failed test left down
        search.close();
        it.close();
    }

    @Test
    void aReindexMovesTheAliasToANewIndexHoldingEveryDocumentAsStoredAndThoseImportedMeanwhile() throws Exception {
        SearchIndices indices = search.indices(it.pipeline.indices());
        String before = indices.current(it.repository).orElseThrow();

        String id = commands.reindex(it.repository, List.of("--range-size", "100", "--read-batch-size", "25",
                "--max-docs-per-second", "150"));
        awaitCommand.status(id, s -> s.path("ranges").path("processed").asLong() >= 2, "ranges read");
        it.generate(CUSTOMERS + 10, STATEMENTS, "--from-customer", Integer.toString(CUSTOMERS));
        JsonNode status = awaitCommand.end(id);

        long total = it.generated(CUSTOMERS + 10, STATEMENTS).size();
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(status.path("ranges").path("failed").asLong()).isZero();
        assertThat(status.path("previousIndex").asText()).isEqualTo(before);
        String after = indices.current(it.repository).orElseThrow();
        assertThat(after).isEqualTo(status.path("index").asText()).isNotEqualTo(before);
        assertThat(indices.generations(it.repository)).as("the old index is kept for a rollback").contains(before, after);
        await("documents in MongoDB", it::mongoCount, total, LONG);
        await("documents in the new index", it::elasticsearchCount, total, LONG);
        assertThat(indices.settings(after)).as("refresh back to the default").doesNotContainKey("index.refresh_interval")
                .doesNotContainKey("index.translog.durability");
        assertSameAsStored(after, 40);
    }

    @Test
    void aTaskManagerKilledMidReindexLosesNoDocumentAndKeepsAGenerationABulkCommandReads() throws Exception {
        String before = search.indices(it.pipeline.indices()).current(it.repository).orElseThrow();
        CommandStore store = new CommandStore(it.mongo.getDatabase(it.pipeline.mongodb.database));
        String reader = "bulk-reading-" + it.run;
        store.createIfAbsent(reader, "setProperties", it.repository, new Document());
        store.state(reader, CommandStore.State.RUNNING, Updates.set(CommandStore.SELECTION_INDEX, before));
        String id = commands.reindex(it.repository, List.of("--range-size", "50", "--read-batch-size", "10",
                "--max-docs-per-second", "100", "--delete-old"));
        awaitCommand.status(id, s -> s.path("ranges").path("processed").asLong() >= 3, "ranges read");

        services.kill("flink-taskmanager");
        services.start("flink-taskmanager");

        JsonNode status = awaitCommand.end(id);
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(ScopedRun.FLINK.exceptions(status.path("jobId").asText())).as("the job lost its tasks").isNotEmpty();
        assertThat(it.elasticsearchCount()).isEqualTo(it.mongoCount());
        assertSameAsStored(status.path("index").asText(), 20);
        assertThat(status.path("previousIndexDeleted").asBoolean()).as("kept for command " + reader).isFalse();
        assertThat(search.indices(it.pipeline.indices()).generations(it.repository)).contains(before);
    }

    @Test
    void aCatchUpLongerThanTheCheckpointTimeoutDoesNotFailTheJobOverAndATaskManagerKilledDuringItLosesNothing()
            throws Exception {
        // As the stand-in's scan of a large collection: the catch-up's first read held past the checkpoint timeout.
        String id = commands.reindex(it.repository, List.of("--range-size", "100", "--hold-catch-up", "PT30S",
                "--checkpoint-interval", "PT1S", "--checkpoint-timeout", "PT3S"));
        JsonNode catchingUp = awaitCommand.status(id,
                s -> CommandStore.Finishing.CATCHING_UP.name().equals(s.path("finishing").asText()), "the catch-up");
        String job = catchingUp.path("jobId").asText();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (failedCheckpoints(job) < 2 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(failedCheckpoints(job)).as("checkpoints expired during the catch-up").isGreaterThanOrEqualTo(2);
        assertThat(ScopedRun.FLINK.restarts(job)).as("restarts for them").isZero();
        assertThat(commands.status(id).path("finishing").asText()).isEqualTo(CommandStore.Finishing.CATCHING_UP.name());

        // Restarted from the checkpoint before the finish, the job finishes again, whole.
        services.kill("flink-taskmanager");
        services.start("flink-taskmanager");

        JsonNode status = awaitCommand.end(id);
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(status.has("finishing")).as("no finish step once it ended").isFalse();
        assertThat(ScopedRun.FLINK.restarts(job)).as("restarts after the kill").isPositive();
        assertThat(it.elasticsearchCount()).isEqualTo(it.mongoCount());
        assertSameAsStored(status.path("index").asText(), 20);
    }

    private static long failedCheckpoints(String job) throws IOException {
        return ScopedRun.FLINK.checkpoints(job).path("counts").path("failed").asLong();
    }

    @Test
    void aFailedRangeShowsInTheStatusAndARetryReadsItAndFinishes() throws Exception {
        SearchIndices indices = search.indices(it.pipeline.indices());
        String before = indices.current(it.repository).orElseThrow();
        String id = commands.reindex(it.repository, List.of("--range-size", "100", "--fail-range", "2"));

        JsonNode failed = awaitCommand.end(id);
        assertThat(failed.path("state").asText()).isEqualTo("FAILED");
        assertThat(failed.path("ranges").path("failed").asLong()).isEqualTo(1);
        assertThat(failed.path("ranges").path("failedRanges").get(0).path("index").asInt()).isEqualTo(2);
        assertThat(failed.path("ranges").path("failedRanges").get(0).path("reason").asText()).contains("injected failure");
        assertThat(failed.path("error").asText()).contains("retry");
        assertThat(indices.current(it.repository)).as("the alias stays on the old index").contains(before);
        assertThatThrownBy(() -> commands.resume(id)).isInstanceOf(CommandRefusedException.class);

        commands.retry(id);
        JsonNode retried = awaitCommand.end(id);
        assertThat(retried.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(retried.path("ranges").path("failed").asLong()).isZero();
        assertThat(retried.path("ranges").path("processed").asLong()).isEqualTo(retried.path("ranges").path("total").asLong());
        assertThat(indices.current(it.repository)).contains(retried.path("index").asText());
        assertThat(it.elasticsearchCount()).isEqualTo(it.mongoCount());
    }

    @Test
    void anAbortedReindexResumesWhereItStoppedAndASecondOneIsRefusedMeanwhile() throws Exception {
        String id = commands.reindex(it.repository, List.of("--range-size", "50", "--read-batch-size", "10",
                "--max-docs-per-second", "100"));
        JsonNode running = awaitCommand.status(id, s -> s.path("ranges").path("processed").asLong() >= 2, "ranges read");
        Map<String, String> ofTheJob = Map.of("job_id", running.path("jobId").asText(), "stage", "reindex");
        PrometheusScrape scrape = PrometheusScrape.of(ScopedRun.FLINK_METRICS);
        assertThat(scrape.sum(MetricNames.prometheusName(MetricNames.RANGES_DONE), ofTheJob)).as("ranges done, as scraped")
                .isGreaterThanOrEqualTo(running.path("ranges").path("processed").asLong());
        assertThat(scrape.samples()).as("ranges failed, as scraped").anyMatch(s ->
                s.name().equals(MetricNames.prometheusName(MetricNames.RANGES_FAILED)) && s.labels().entrySet().containsAll(
                        ofTheJob.entrySet()) && s.value() == 0);
        assertThatThrownBy(() -> commands.reindex(it.repository, List.of()))
                .isInstanceOfSatisfying(CommandRefusedException.class, e -> assertThat(e.reason())
                        .isEqualTo(CommandRefusedException.Reason.CONFLICT));

        JsonNode aborted = commands.abort(id);
        assertThat(aborted.path("state").asText()).isEqualTo("ABORTED");
        assertThat(aborted.path("savepoint").asText()).isNotEmpty();
        long rangesBefore = aborted.path("ranges").path("processed").asLong();

        commands.resume(id);
        JsonNode resumed = awaitCommand.end(id);
        assertThat(resumed.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(resumed.path("ranges").path("total").asLong()).isGreaterThan(rangesBefore);
        assertThat(it.elasticsearchCount()).isEqualTo(it.mongoCount());
    }

    @Test
    void aBulkUpdateChangesExactlyItsSelectionAndANewerEditWins() throws Exception {
        String state = "TX";
        List<Document> selected = documents.find(Filters.and(Filters.eq(DocumentFields.TYPE, "Statement"),
                Filters.eq(DocumentFields.ANCESTOR_IDS, BankGenerator.stateId(state)))).into(new ArrayList<>());
        assertThat(selected).as("statements in " + state).hasSizeGreaterThan(5);
        Document edited = selected.get(0);
        long userVersion = publishUserEdit(edited, "reviewed", "by a user");

        String id = commands.bulk(it.repository, "setProperties", Map.of("type", "Statement", "state", state), false,
                JSON.createObjectNode().set("properties", JSON.createObjectNode().put("reviewed", "yes")).get("properties"));
        JsonNode status = awaitCommand.end(id);
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(status.path("selectionRead").asText()).as("how " + search.name() + " reads a selection")
                .isEqualTo((search.name().equals(SearchOptions.Engine.opensearch.name())
                        ? CommandStore.SelectionRead.POINT_IN_TIME : CommandStore.SelectionRead.SLICED_SCROLL).name());
        assertThat(it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(CommandStore.COLLECTION)
                .find(Filters.eq(CommandStore.ID, id)).first()).as("its point in time closed once every slice was read")
                .doesNotContainKey(CommandStore.POINT_IN_TIME);
        assertThat(status.path("total").asLong()).isEqualTo(selected.size());
        assertThat(status.path("processed").asLong() + status.path("skipped").asLong()).isEqualTo(selected.size());
        long changed = selected.size() - 1L;
        assertThat(status.path("applied").asLong()).as("COMPLETED means applied: in MongoDB as the status is read")
                .isEqualTo(changed).isEqualTo(documents.countDocuments(Filters.eq("properties.reviewed", "yes")));

        await("changed in MongoDB", () -> documents.countDocuments(Filters.eq("properties.reviewed", "yes")), changed, LONG);
        await("changed in Elasticsearch", () -> countReviewed("yes"), changed, LONG);
        await("the command's status counting every change indexed", () -> indexed(id),
                changed, LONG);
        await("the user's edit in Elasticsearch", () -> countReviewed("by a user"), 1, LONG);
        Document afterwards = documents.find(Filters.eq(DocumentFields.KEY, edited.getString(DocumentFields.KEY))).first();
        assertThat(afterwards.get(DocumentFields.PROPERTIES, Document.class).getString("reviewed")).isEqualTo("by a user");
        assertThat(afterwards.getLong(DocumentFields.VERSION)).isEqualTo(userVersion);
        for (Document document : documents.find(Filters.eq("properties.reviewed", "yes"))) {
            assertThat(document.getString(DocumentFields.TYPE)).isEqualTo("Statement");
            assertThat(document.getList(DocumentFields.ANCESTOR_IDS, String.class)).contains(BankGenerator.stateId(state));
            assertThat(document.get(DocumentFields.ORIGIN, Document.class).getString(DocumentFields.Origin.COMMAND)).isEqualTo(id);
        }
        assertThat(it.deadLetters()).isZero();
    }

    @Test
    void aBulkUpdateWithTheImportStoppedWaitsForItAndCompletesOnceItIsResumedByName() throws Exception {
        String importJob = ScopedRun.FLINK.jobs().stream().filter(job -> job.path("state").asText().equals("RUNNING")
                && job.path("name").asText().endsWith(" it-commands-" + it.run)).findFirst().orElseThrow().path("jid").asText();
        ScopedRun.FLINK.stopWithSavepoint(importJob, LONG);
        String state = "CA";
        long selected = documents.countDocuments(Filters.and(Filters.eq(DocumentFields.TYPE, "Statement"),
                Filters.eq(DocumentFields.ANCESTOR_IDS, BankGenerator.stateId(state))));

        String id = commands.bulk(it.repository, "setProperties", Map.of("type", "Statement", "state", state), false,
                JSON.createObjectNode().set("properties", JSON.createObjectNode().put("reviewed", "later")).get("properties"));
        JsonNode waiting = awaitCommand.end(id);
        assertThat(waiting.path("state").asText()).as(waiting.toString()).isEqualTo("WAITING_FOR_IMPORT");
        assertThat(waiting.path("message").asText()).contains("bin/volumizer job resume import");
        assertThat(waiting.path("processed").asLong()).isEqualTo(selected);
        assertThat(documents.countDocuments(Filters.eq("properties.reviewed", "later"))).as("nothing applied yet").isZero();

        // Resumed on one more slot, with a default search cluster that is not the one it ran on: it keeps its own.
        assertThat(JobsCommand.execute("--flink-rest", ScopedRun.FLINK_REST, "--jar", JobsJar.path().toString(),
                "--default-search-url", "http://127.0.0.1:1", "resume", Step.IMPORT_AND_INDEX.id(), "--parallelism", "3"))
                .isZero();
        JsonNode resumed = ScopedRun.FLINK.jobs().stream().filter(job -> job.path("state").asText().equals("RUNNING")
                && job.path("name").asText().endsWith(" it-commands-" + it.run)).findFirst().orElseThrow();
        it.adopt(resumed.path("jid").asText());
        List<String> arguments = FlinkSessionClient.runArguments(ScopedRun.FLINK.config(resumed.path("jid").asText()))
                .orElseThrow();
        assertThat(String.join(" ", arguments)).contains("--search-url " + it.pipeline.search.urls, "--parallelism 3");
        JsonNode completed = awaitCommand.status(id, s -> s.path("state").asText().equals("COMPLETED"), "COMPLETED");
        assertThat(completed.path("applied").asLong()).isEqualTo(selected)
                .isEqualTo(documents.countDocuments(Filters.eq("properties.reviewed", "later")));
        assertThat(waiting.path("indexed").asLong()).as("nothing indexed while the import waited").isZero();
        await("the command's status counting every change indexed", () -> indexed(id),
                selected, LONG);
        assertThat(it.deadLetters()).isZero();
    }

    /** The documents a bulk command's status counts as indexed in its change. */
    private long indexed(String commandId) {
        try {
            return commands.status(commandId).path("indexed").asLong();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aRequestItCannotRunIsRefusedBeforeAnythingRuns() {
        assertThatThrownBy(() -> commands.status("no-such-command")).isInstanceOfSatisfying(CommandRefusedException.class,
                e -> assertThat(e.reason()).isEqualTo(CommandRefusedException.Reason.NOT_FOUND));
        assertThatThrownBy(() -> commands.bulk(it.repository, "setProperties", Map.of("colour", "red"), false,
                JSON.createObjectNode().put("reviewed", "yes"))).isInstanceOfSatisfying(CommandRefusedException.class,
                        e -> assertThat(e.field()).isEqualTo("query.colour"));
        assertThatThrownBy(() -> commands.bulk(it.repository, "setProperties", Map.of("type", "Statement"), false,
                JSON.createObjectNode().put("$set", "x"))).isInstanceOfSatisfying(CommandRefusedException.class,
                        e -> assertThat(e.field()).isEqualTo("params.properties.$set"));
        assertThatThrownBy(() -> commands.bulk(it.repository, "rename", Map.of(), false, null))
                .isInstanceOfSatisfying(CommandRefusedException.class, e -> assertThat(e.field()).isEqualTo("action"));
        assertThatThrownBy(() -> commands.bulk(it.repository, "delete", Map.of(), false, null))
                .isInstanceOfSatisfying(CommandRefusedException.class, e -> assertThat(e.field()).isEqualTo(CommandRequests.ALL));
        assertThatThrownBy(() -> commands.reindex("nothing-here", List.of())).isInstanceOfSatisfying(
                CommandRefusedException.class, e -> assertThat(e.reason()).isEqualTo(CommandRefusedException.Reason.NOT_FOUND));
    }

    /** A user's edit of a document, as the API appends it: a version from the clock, far above the stored one. */
    private long publishUserEdit(Document stored, String property, String value) throws Exception {
        DocumentEvent current = MongoDocumentStore.toEvent(stored, Operation.UPDATE);
        Map<String, Object> properties = new LinkedHashMap<>(current.getProperties());
        properties.put(property, value);
        Instant now = Instant.now();
        long version = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
        DocumentEvent edit = DocumentEvent.newBuilder(current).setProperties(properties).setVersion(version)
                .setModified(now).setEventTime(now).setOrigin(Origin.newBuilder().setSource("api").build()).build();
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, it.pipeline.kafka.bootstrapServers);
        try (KafkaProducer<String, DocumentEvent> producer = new KafkaProducer<>(config, new StringSerializer(),
                KafkaAvroSerde.serializer(it.pipeline.registry.url, DocumentEvent.class))) {
            producer.send(new ProducerRecord<>(it.pipeline.documentsTopic(), DocumentKeys.parentKey(edit), edit)).get();
        }
        return version;
    }

    /** Field by field, a sample of the index's documents against MongoDB's. */
    private void assertSameAsStored(String index, int sample) throws Exception {
        List<Document> stored = documents.find(Filters.ne(DocumentFields.DELETED, true)).limit(sample).into(new ArrayList<>());
        assertThat(stored).hasSize(sample);
        for (Document document : stored) {
            String id = document.getString(DocumentFields.KEY);
            JsonNode source = search.reader().get(index, id, null).orElseThrow().source();
            assertThat(source.path(DocumentFields.ID).asText()).as(id).isEqualTo(id);
            for (String field : List.of(DocumentFields.REPOSITORY, DocumentFields.PARENT_ID, DocumentFields.PATH,
                    DocumentFields.TYPE, DocumentFields.NAME, DocumentFields.TITLE)) {
                assertThat(source.path(field).asText(null)).as(id + " " + field).isEqualTo(document.getString(field));
            }
            assertThat(source.path(DocumentFields.VERSION).asLong()).as(id + " version").isEqualTo(document.getLong(DocumentFields.VERSION));
            for (String field : List.of(DocumentFields.CREATED, DocumentFields.MODIFIED)) {
                assertThat(instant(source.path(field))).as(id + " " + field).isEqualTo(document.getDate(field).toInstant());
            }
            assertThat(JSON.convertValue(source.path(DocumentFields.ANCESTOR_IDS), List.class)).as(id + " ancestors")
                    .isEqualTo(document.getList(DocumentFields.ANCESTOR_IDS, String.class));
            assertThat(JSON.readTree(JSON.writeValueAsString(source.path(DocumentFields.PROPERTIES))))
                    .as(id + " properties").isEqualTo(JSON.readTree(document.get(DocumentFields.PROPERTIES, Document.class).toJson()));
        }
    }

    private static Instant instant(JsonNode value) {
        return value.isNumber() ? Instant.ofEpochMilli(value.asLong()) : Instant.parse(value.asText());
    }

    /** Documents whose property "reviewed" has this value, as the index has them. */
    private long countReviewed(String value) {
        ObjectNode term = JSON.createObjectNode();
        term.putObject("term").put("properties.reviewed", value);
        try {
            return search.reader().count(List.of(it.pipeline.indices().of(it.repository)), term);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
