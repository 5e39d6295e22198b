package io.volumizer.jobs.pipeline;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.codec.ConfluentWireFormat;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;
import io.volumizer.options.conventions.MetricNames;

/**
 * The pipeline on the local session cluster, Kafka, registry, MongoDB-protocol server and Elasticsearch: the jobs
 * jar is uploaded and run through Flink's REST API, exactly as a user would, and the stores are checked directly.
 */
class PipelineIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final FlinkSessionClient FLINK = ScopedRun.FLINK;

    private ScopedRun it;
    private String run;
    private String repository;
    private PipelineOptions pipeline;
    private Stores stores;
    private MongoClient mongo;

    @BeforeEach
    void configure() throws IOException {
        it = new ScopedRun(JobsJar.path());
        run = it.run;
        repository = it.repository;
        pipeline = it.pipeline;
        stores = it.stores;
        mongo = it.mongo;
    }

    @AfterEach
    void cleanUp() throws Exception {
        it.close();
    }

    private List<String> args(String... options) {
        return it.args(options);
    }

    private String submit(Step step, List<String> args, String savepoint) throws Exception {
        return it.submit(step, args, savepoint);
    }

    private void generate(long customers, int statements, String... range) throws Exception {
        it.generate(customers, statements, range);
    }

    private List<DocumentEvent> expected(long customers, int statements) {
        return it.generated(customers, statements);
    }

    private long mongoCount(String database) {
        return it.mongoCount(database);
    }

    private static long restarts(String job) {
        try {
            return FLINK.restarts(job);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void generateImportIndexEndToEnd() throws Exception {
        List<DocumentEvent> expected = expected(160, 60);
        assertThat(expected).hasSizeGreaterThanOrEqualTo(20_000);
        submit(Step.IMPORT, args("--group-id", "it-import-" + run), null);
        submit(Step.INDEX, args("--index-group-id", "it-index-" + run), null);

        generate(160, 60);

        await("documents in MongoDB", () -> mongoCount(pipeline.mongodb.database), expected.size(), Duration.ofMinutes(5));
        await("documents in Elasticsearch", it::elasticsearchCount, expected.size(), Duration.ofMinutes(3));
        assertThat(stores.committedRecords(pipeline.deadletterTopic())).isZero();

        var collection = mongo.getDatabase(pipeline.mongodb.database).getCollection(repository);
        for (int i = 0; i < 25; i++) {
            DocumentEvent generated = expected.get((i * 7919) % expected.size());
            Document stored = collection.find(Filters.eq("_id", generated.getId())).first();
            assertThat(stored).as(generated.getId()).isNotNull();
            assertThat(stored.getString("parentId")).isEqualTo(generated.getParentId());
            assertThat(stored.getString("type")).isEqualTo(generated.getType());
            assertThat(stored.getString("name")).isEqualTo(generated.getName());
            assertThat(stored.getString("title")).isEqualTo(generated.getTitle());
            assertThat(stored.getLong("version")).isEqualTo(generated.getVersion());
            assertThat(new HashMap<>(stored.get("properties", Document.class))).isEqualTo(generated.getProperties());
        }

        String account = expected.stream().filter(d -> d.getType().equals("Account")).findFirst().orElseThrow().getId();
        List<String> childrenInOrder = collection.find(Filters.eq("parentId", account)).sort(Sorts.ascending("name"))
                .map(d -> d.getString("name")).into(new ArrayList<>());
        List<String> expectedChildren = expected.stream().filter(d -> account.equals(d.getParentId()))
                .map(DocumentEvent::getName).sorted().collect(Collectors.toList());
        assertThat(childrenInOrder).hasSize(61).isEqualTo(expectedChildren);

        DocumentEvent accented = expected.stream().filter(d -> d.getType().equals("CustomerFolder"))
                .filter(d -> !d.getTitle().matches("[A-Za-z' .-]*")).findFirst().orElseThrow();
        String folded = java.text.Normalizer.normalize(accented.getTitle(), java.text.Normalizer.Form.NFD)
                .replaceAll("\\p{M}", "").toLowerCase();
        SearchResult found = search("{\"bool\":{\"must\":{\"match\":{\"fulltext\":{\"query\":\""
                + folded + "\",\"operator\":\"and\"}}},\"filter\":[{\"term\":{\"type\":\"Statement\"}},"
                + "{\"term\":{\"ancestorIds\":\"" + accented.getId() + "\"}}]}}");
        long statementsOfCustomer = expected.stream().filter(d -> d.getType().equals("Statement"))
                .filter(d -> d.getTitle().endsWith(accented.getTitle())).count();
        assertThat(found.total().value()).as("statements of %s found by '%s'",
                accented.getTitle(), folded).isEqualTo(statementsOfCustomer).isPositive();
    }

    private SearchResult search(String query) throws IOException {
        try (SearchEngine search = SearchEngines.open(pipeline.search)) {
            return search.reader().search(List.of(pipeline.indices().of(repository)),
                    SearchQuery.of((ObjectNode) JSON.readTree(query)).withSize(100).withCountUpTo(Integer.MAX_VALUE));
        }
    }

    /** id -> SHA-256 of the stored document without its import time: what must not depend on how it was imported. */
    private Map<String, String> contentHashes(String database) throws Exception {
        Map<String, String> hashes = new HashMap<>();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (Document document : mongo.getDatabase(database).getCollection(repository).find()) {
            document.remove("importedAt");
            hashes.put(document.getString("_id"), HexFormat.of().formatHex(
                    sha.digest(document.toJson().getBytes(StandardCharsets.UTF_8))));
        }
        return hashes;
    }

    @Test
    void stopWithSavepointAndResumeGivesTheSameContentAsAnUninterruptedRunAndResetReplaysIt() throws Exception {
        long total = expected(40, 60).size();
        // The second half of the customers is generated only after the stop, so the stop is always mid-run.
        generate(40, 60, "--to-customer", "20");

        List<String> interruptedArgs = args("--group-id", "it-b-" + run, "--mongodb-database", "it_" + run + "_b");
        String first = submit(Step.IMPORT, interruptedArgs, null);
        await("first part", () -> Math.min(mongoCount("it_" + run + "_b"), 1000), 1000, Duration.ofMinutes(2));
        String savepoint = FLINK.stopWithSavepoint(first, Duration.ofMinutes(1));
        long atStop = mongoCount("it_" + run + "_b");
        generate(40, 60, "--from-customer", "20");
        String resumed = submit(Step.IMPORT, interruptedArgs, savepoint);
        await("resumed import", () -> mongoCount("it_" + run + "_b"), total, Duration.ofMinutes(3));
        FLINK.cancel(resumed, Duration.ofMinutes(1));
        assertThat(atStop).as("stopped mid-run").isLessThan(total);

        String uninterrupted = submit(Step.IMPORT, args("--group-id", "it-a-" + run, "--mongodb-database", "it_" + run + "_a"), null);
        await("uninterrupted import", () -> mongoCount("it_" + run + "_a"), total, Duration.ofMinutes(3));
        FLINK.cancel(uninterrupted, Duration.ofMinutes(1));
        assertThat(contentHashes("it_" + run + "_b")).isEqualTo(contentHashes("it_" + run + "_a"));

        // Reset: fresh collection, new consumer group from the earliest offset: the same content again.
        mongo.getDatabase("it_" + run + "_b").drop();
        String replay = submit(Step.IMPORT, args("--group-id", "it-c-" + run, "--mongodb-database", "it_" + run + "_b"), null);
        await("replayed import", () -> mongoCount("it_" + run + "_b"), total, Duration.ofMinutes(3));
        FLINK.cancel(replay, Duration.ofMinutes(1));
        assertThat(contentHashes("it_" + run + "_b")).isEqualTo(contentHashes("it_" + run + "_a"));
        mongo.getDatabase("it_" + run + "_a").drop();
        mongo.getDatabase("it_" + run + "_b").drop();
    }

    @Test
    void anInjectedFailureRestartsFromTheCheckpointWithNothingLostOrDuplicated() throws Exception {
        long total = expected(40, 60).size();
        generate(40, 60);

        String job = submit(Step.IMPORT, args("--group-id", "it-crash-" + run, "--inject-failure-at", "1777"), null);
        await("documents in MongoDB", () -> mongoCount(pipeline.mongodb.database), total, Duration.ofMinutes(4));
        await("imported events", () -> stores.committedRecords(pipeline.importedTopic()), total, Duration.ofMinutes(1));

        assertThat(FLINK.exceptions(job)).as("the injected failure happened").contains("injected failure");
        await("restarts after the failure", () -> restarts(job), 1, Duration.ofSeconds(30));
        assertThat(FLINK.state(job)).as("and runs on").isEqualTo("RUNNING");
        List<String> importedIds = importedIds();
        assertThat(importedIds).hasSize((int) total);
        assertThat(Set.copyOf(importedIds)).as("no duplicates in the imported topic").hasSize((int) total);
    }

    private List<String> importedIds() {
        AvroCodec<io.volumizer.schemas.event.ImportedEvent> codec = AvroCodec.forSpecific(
                new SchemaRegistryClient(pipeline.registry.url), "unused", io.volumizer.schemas.event.ImportedEvent.class);
        List<String> ids = new ArrayList<>();
        try (var consumer = consumer()) {
            consumer.subscribe(List.of(pipeline.importedTopic()));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int empty = 0;
            while (System.nanoTime() < deadline && empty < 6) {
                var records = consumer.poll(Duration.ofMillis(500));
                empty = records.isEmpty() ? empty + 1 : 0;
                records.forEach(r -> ids.add(codec.decode(r.value()).getDocument().getId()));
            }
        }
        return ids;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.kafka.bootstrapServers);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "it-read-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    void badInputIsDeadLetteredWithItsReasonAndTheJobKeepsGoing() throws Exception {
        long total = expected(5, 6).size();
        // Long enough for a parent at depth 4 to be written on a loaded machine (each level waits for the one above,
        // at backed-off lookups), short enough for the orphan to be dead-lettered soon.
        String job = submit(Step.IMPORT, args("--group-id", "it-bad-" + run, "--parent-wait-margin", "PT5S", "--parent-wait-min", "PT5S"), null);
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(new SchemaRegistryClient(pipeline.registry.url),
                AvroCodec.valueSubject(pipeline.documentsTopic()), DocumentEvent.class);
        DocumentEvent orphan = expected(5, 6).get(60);
        orphan.setId("orphan-" + run);
        orphan.setParentId("never-arrives");
        orphan.setName("orphan.pdf");
        byte[] unknownSchema = codec.encode(orphan).clone();
        ConfluentWireFormat.writeHeader(Integer.MAX_VALUE - 3, unknownSchema);
        byte[] valid = codec.encode(expected(5, 6).get(60));
        DocumentEvent misKeyed = expected(5, 6).get(61);
        misKeyed.setId("mis-keyed-" + run);
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.kafka.bootstrapServers);
        try (var producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(pipeline.documentsTopic(), "k".getBytes(), "{\"not\":\"avro\"}".getBytes()));
            producer.send(new ProducerRecord<>(pipeline.documentsTopic(), "k".getBytes(), unknownSchema));
            producer.send(new ProducerRecord<>(pipeline.documentsTopic(), "k".getBytes(), java.util.Arrays.copyOf(valid, 12)));
            producer.send(new ProducerRecord<>(pipeline.documentsTopic(), "never-arrives".getBytes(), codec.encode(orphan)));
            producer.send(new ProducerRecord<>(pipeline.documentsTopic(), "k".getBytes(), codec.encode(misKeyed)));
        }
        generate(5, 6);

        await("good documents imported", () -> mongoCount(pipeline.mongodb.database), total, Duration.ofMinutes(2));
        await("dead letters", () -> stores.committedRecords(pipeline.deadletterTopic()), 5, Duration.ofMinutes(1));

        AvroCodec<DeadLetter> deadLetters = AvroCodec.forSpecific(new SchemaRegistryClient(pipeline.registry.url),
                "unused", DeadLetter.class);
        List<String> reasons = new ArrayList<>();
        Map<ReasonClass, Long> classes = new EnumMap<>(ReasonClass.class);
        try (var consumer = consumer()) {
            consumer.subscribe(List.of(pipeline.deadletterTopic()));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (reasons.size() < 5 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> {
                    DeadLetter letter = deadLetters.decode(r.value());
                    assertThat(letter.getPayload()).isNotEqualTo(ByteBuffer.allocate(0));
                    reasons.add(letter.getStage() + ": " + letter.getReason());
                    classes.merge(letter.getReasonClass(), 1L, Long::sum);
                });
            }
        }
        assertThat(reasons).hasSize(5).anyMatch(r -> r.contains("WRONG_MAGIC_BYTE"))
                .anyMatch(r -> r.contains("record key 'k' is not the parent id of document mis-keyed-" + run))
                .anyMatch(r -> r.contains("UNKNOWN_SCHEMA_ID")).anyMatch(r -> r.contains("TRUNCATED"))
                .anyMatch(r -> r.contains("parent never-arrives not found: every partition was read past"));
        Map<ReasonClass, Long> onePerClass = Map.of(ReasonClass.WRONG_MAGIC_BYTE, 1L, ReasonClass.KEY_MISMATCH, 1L,
                ReasonClass.UNKNOWN_SCHEMA_ID, 1L, ReasonClass.TRUNCATED, 1L, ReasonClass.PARENT_NOT_FOUND, 1L);
        assertThat(classes).isEqualTo(onePerClass);
        PrometheusScrape scrape = PrometheusScrape.of(ScopedRun.FLINK_METRICS);
        for (ReasonClass reasonClass : ReasonClass.values()) {
            assertThat(scrape.sum(ScopedRun.DEAD_LETTERED, Map.of("job_id", job, "stage", "import",
                    MetricNames.REASON_LABEL, DeadLetters.label(reasonClass))))
                    .as("dead letters of class %s in the scrape", reasonClass)
                    .isEqualTo(onePerClass.getOrDefault(reasonClass, 0L).doubleValue());
        }
        assertThat(FLINK.state(job)).isEqualTo("RUNNING");
    }
}
