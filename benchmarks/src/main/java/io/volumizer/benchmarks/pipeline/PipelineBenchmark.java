package io.volumizer.benchmarks.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

import org.apache.http.HttpHost;
import org.bson.Document;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.jobs.options.PipelineOptions;
import io.volumizer.jobs.submit.FlinkSessionClient;
import io.volumizer.jobs.submit.JobArguments;
import io.volumizer.jobs.submit.Stores;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.elasticsearch.ElasticsearchDocumentStore;
import io.volumizer.sinks.mongodb.MongoDocumentStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The pipeline's throughput, each figure against a baseline measured minutes apart in the same run on the same
 * services: the import job against a raw bulk-upsert loop with the official MongoDB driver, keyed by parent against
 * spread by document, the index job against a raw {@code _bulk} loop, and generate → import → index end to end,
 * in rounds on fresh topics and stores; the table reports medians.
 * Writes {@code pipeline.json} and {@code pipeline.md}.
 */
@Command(name = "pipeline-benchmark", mixinStandardHelpOptions = true, sortOptions = false)
public final class PipelineBenchmark implements Callable<Integer> {

    private static final String GENERATE = "io.volumizer.jobs.generate.GenerateJob";
    private static final String IMPORT = "io.volumizer.jobs.imports.ImportJob";
    private static final String INDEX = "io.volumizer.jobs.index.IndexJob";

    @Mixin
    PipelineOptions pipeline = new PipelineOptions();

    @Option(names = "--flink-rest", defaultValue = "http://127.0.0.1:8081")
    String flinkRest;

    @Option(names = "--jar", required = true, description = "The jobs jar.")
    Path jar;

    @Option(names = "--customers", defaultValue = "400", description = "Customers per run (default: ${DEFAULT-VALUE}, ~50,000 documents).")
    long customers;

    @Option(names = "--results", defaultValue = "benchmarks/results", description = "Folder of pipeline.json and pipeline.md.")
    Path results;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of every measure; the table shows medians (default: ${DEFAULT-VALUE}).")
    int rounds;

    private static final String GENERATE_JOB = "generate job (into Kafka)";
    private static final String RAW_MONGODB = "raw MongoDB bulk upsert loop (baseline)";
    private static final String IMPORT_BY_PARENT = "import job, keyed by parent";
    private static final String IMPORT_SPREAD = "import job, spread by document";
    private static final String HIT_RATIO = "parent cache hit ratio, keyed by parent";
    private static final String HIT_RATIO_BOUND = "parent cache hit ratio, bound of this data";
    private static final String RAW_BULK = "raw Elasticsearch _bulk loop (baseline)";
    private static final String INDEX_JOB = "index job";
    private static final String END_TO_END = "end to end generate -> import -> index";

    private final String runId = Long.toString(System.currentTimeMillis(), 36);
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final Map<String, List<Double>> samples = new LinkedHashMap<>();
    private FlinkSessionClient flink;
    private String jarId;
    private final List<String> jobs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        flink = new FlinkSessionClient(flinkRest);
        jarId = flink.uploadJar(jar);
        GeneratorSettings settings = new GeneratorSettings(11, customers, 60, 2.0, GeneratorSettings.DEFAULT_LAST_PERIOD, "bench");
        List<DocumentEvent> documents = documents(settings);
        figures.put("documents", documents.size());
        figures.put("rounds", rounds);
        figures.put(HIT_RATIO_BOUND, hitRatioBound(documents));
        try (Stores stores = new Stores(pipeline); MongoClient mongo = MongoClients.create(pipeline.mongodbUri);
             RestClient elasticsearch = RestClient.builder(HttpHost.create(pipeline.elasticsearchUrl)).build()) {
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
                round(round, documents, stores, mongo, elasticsearch);
            }
            dropDatabases(mongo);
        }
        write();
        return 0;
    }

    /**
     * One round on fresh topics, databases and indices: each job right after its baseline, so that the two share
     * the machine's state of the moment as far as possible.
     */
    private void round(int round, List<DocumentEvent> documents, Stores stores, MongoClient mongo,
            RestClient elasticsearch) throws Exception {
        long n = documents.size();
        String tag = round + "-" + runId;
        stores.reset("bench", pipeline.documentsTopic, pipeline.importedTopic, pipeline.deadletterTopic);
        elasticsearch.performRequest(new Request("DELETE", "/bench-*"));
        dropDatabases(mongo);

        long started = System.nanoTime();
        run(GENERATE, args("--seed", "11", "--customers", Long.toString(customers), "--repository", "bench"));
        awaitFinished(jobs.get(jobs.size() - 1));
        record(GENERATE_JOB, n, System.nanoTime() - started);

        record(RAW_MONGODB, n, rawMongo(mongo, documents));
        String parentKeyed = run(IMPORT, args("--group-id", "bench-parent-" + tag, "--mongodb-database", "bench_parent"));
        record(IMPORT_BY_PARENT, n, timeUntil(() -> count(mongo, "bench_parent"), n));
        sample(HIT_RATIO, hitRatio(parentKeyed));
        // Stopping (not cancelling) commits the last Kafka transaction: the index job reads all of it.
        flink.stopWithSavepoint(parentKeyed, Duration.ofMinutes(2));

        String documentKeyed = run(IMPORT, args("--group-id", "bench-document-" + tag, "--mongodb-database",
                "bench_document", "--partition-by", "document", "--imported-topic", pipeline.importedTopic + ".unused"));
        record(IMPORT_SPREAD, n, timeUntil(() -> count(mongo, "bench_document"), n));
        flink.cancel(documentKeyed);

        record(RAW_BULK, n, rawBulk(elasticsearch, documents));
        String index = run(INDEX, args("--index-group-id", "bench-index-" + tag, "--index-prefix", "bench-job-"));
        record(INDEX_JOB, n, timeUntil(() -> esCount(stores, "bench-job-"), n));
        flink.cancel(index);

        stores.reset("bench", pipeline.documentsTopic, pipeline.importedTopic);
        dropDatabases(mongo);
        String e2eImport = run(IMPORT, args("--group-id", "bench-e2e-import-" + tag, "--mongodb-database", "bench_e2e"));
        String e2eIndex = run(INDEX, args("--index-group-id", "bench-e2e-index-" + tag, "--index-prefix", "bench-e2e-"));
        long e2eStarted = System.nanoTime();
        run(GENERATE, args("--seed", "11", "--customers", Long.toString(customers), "--repository", "bench"));
        timeUntil(() -> esCount(stores, "bench-e2e-"), n);
        record(END_TO_END, n, System.nanoTime() - e2eStarted);
        flink.cancel(e2eImport);
        flink.cancel(e2eIndex);
    }

    /**
     * 1 - MongoDB lookups / documents resolved with a parent; REST serves metrics a moment after they change, so
     * it retries.
     */
    private double hitRatio(String job) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            long resolved = flink.metricSum(job, "", "resolvedWithParent");
            long lookups = flink.metricSum(job, "", "parentCacheMisses");
            if (resolved > 0) {
                return 1 - (double) lookups / resolved;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("job " + job + " reports no parent cache metrics");
    }

    /**
     * The best hit ratio keying by parent allows on this data: the first child of each parent must read it once,
     * so at most 1 - distinct parents / documents that have a parent.
     */
    private static double hitRatioBound(List<DocumentEvent> documents) {
        long withParent = documents.stream().filter(d -> d.getParentId() != null).count();
        long parents = documents.stream().map(DocumentEvent::getParentId).filter(java.util.Objects::nonNull).distinct().count();
        return 1 - (double) parents / withParent;
    }

    private static List<DocumentEvent> documents(GeneratorSettings settings) {
        BankGenerator generator = new BankGenerator(settings);
        List<DocumentEvent> documents = new ArrayList<>();
        for (long i = 0; i < generator.indexSpace(); i++) {
            DocumentEvent document = generator.documentAt(i);
            if (document != null) {
                documents.add(document);
            }
        }
        return documents;
    }

    /** The stored form the import job writes, for the baselines (ancestry is not what they measure). */
    private static ImportedEvent imported(DocumentEvent document) {
        return ImportedEvent.newBuilder().setDocument(document)
                .setAncestorIds(document.getParentId() == null ? List.of() : List.of(document.getParentId()))
                .setPath("/" + document.getName()).setImportedAt(Instant.EPOCH).build();
    }

    /**
     * A one-off script's import: unordered bulk upserts by id, 1,000 per request, into a collection with the same
     * navigation indexes the import job creates (index upkeep is part of the work either way).
     */
    private long rawMongo(MongoClient mongo, List<DocumentEvent> documents) {
        MongoDocumentStore store = new MongoDocumentStore(mongo, "bench_raw", Backoff.DEFAULT);
        store.ensureIndexes("bench");
        var collection = store.collection("bench");
        long started = System.nanoTime();
        List<ReplaceOneModel<Document>> batch = new ArrayList<>(1000);
        for (DocumentEvent document : documents) {
            batch.add(new ReplaceOneModel<>(Filters.eq("_id", document.getId()),
                    MongoDocumentStore.toBson(imported(document)), new ReplaceOptions().upsert(true)));
            if (batch.size() == 1000) {
                collection.bulkWrite(batch, new BulkWriteOptions().ordered(false));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            collection.bulkWrite(batch, new BulkWriteOptions().ordered(false));
        }
        return System.nanoTime() - started;
    }

    /**
     * A one-off script's indexing: the index stage's own {@code _bulk} writer (versioned index actions, 1,000 per
     * request, into an index made from the same template) in a plain loop, without Flink or Kafka.
     */
    private long rawBulk(RestClient client, List<DocumentEvent> documents) throws Exception {
        ElasticsearchDocumentStore store = new ElasticsearchDocumentStore(client, "bench-raw-", Backoff.DEFAULT);
        store.ensureTemplate();
        long started = System.nanoTime();
        for (int from = 0; from < documents.size(); from += 1000) {
            store.write(documents.subList(from, Math.min(from + 1000, documents.size())).stream()
                    .map(PipelineBenchmark::imported).toList());
        }
        return System.nanoTime() - started;
    }

    private String run(String job, List<String> args) throws Exception {
        String id = flink.run(jarId, job, args, null);
        jobs.add(id);
        return id;
    }

    private void awaitFinished(String job) throws Exception {
        flink.awaitState(job, "FINISHED", Duration.ofMinutes(10));
    }

    /** Nanoseconds from the first document seen to the last, polling every 200 ms. */
    private static long timeUntil(LongSupplier count, long expected) throws InterruptedException {
        long first = 0;
        long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
        long value = count.getAsLong();
        while (value < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + value + " of " + expected + " after 15 minutes");
            }
            Thread.sleep(200);
            value = count.getAsLong();
            if (first == 0 && value > 0) {
                first = System.nanoTime();
            }
        }
        return System.nanoTime() - (first == 0 ? System.nanoTime() : first);
    }

    private long count(MongoClient mongo, String database) {
        return mongo.getDatabase(database).getCollection("bench").estimatedDocumentCount();
    }

    private static long esCount(Stores stores, String prefix) {
        try {
            return stores.elasticsearchCount(prefix, "bench");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void dropDatabases(MongoClient mongo) {
        for (String database : List.of("bench_raw", "bench_parent", "bench_document", "bench_e2e")) {
            mongo.getDatabase(database).drop();
        }
    }

    private List<String> args(String... overrides) {
        return JobArguments.with(JobArguments.of(pipeline), overrides);
    }

    private void record(String what, long documents, long nanos) {
        double perSecond = documents / (nanos / 1e9);
        sample(what, perSecond);
        System.out.printf(Locale.ROOT, "%-45s %,10.0f docs/s%n", what, perSecond);
    }

    private void sample(String what, double value) {
        samples.computeIfAbsent(what, k -> new ArrayList<>()).add(value);
    }

    /** Per round, {@code figure / baseline}. */
    private List<Double> ratios(String figure, String baseline) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            ratios.add(samples.get(figure).get(i) / samples.get(baseline).get(i));
        }
        return ratios;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private void write() throws Exception {
        Files.createDirectories(results);
        figures.put("date", LocalDate.now().toString());
        figures.put("machine", Runtime.getRuntime().availableProcessors() + " cores, "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB max heap of the runner, every service on this machine");
        figures.put("samples per round", samples);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(results.resolve("pipeline.json").toFile(), figures);
        double hitRatio = median(samples.get(HIT_RATIO));
        double e2e = median(samples.get(END_TO_END));
        String table = String.join("\n",
                "# Pipeline benchmarks", "",
                "Measured " + figures.get("date") + " on " + figures.get("machine") + "; " + figures.get("documents")
                        + " documents per run (" + customers + " customers, 60 statements per account), job parallelism 2.",
                "Each figure is the median of " + rounds + " rounds; each ratio is the median of the rounds' ratios "
                        + "(job and baseline measured minutes apart in the same round), with its range.", "",
                "| measure | figure | baseline | ratio (range) | target | met |",
                "|---|---|---|---|---|---|",
                row("import job docs/s", IMPORT_BY_PARENT, "raw bulk-upsert loop", RAW_MONGODB, 0.9),
                row("import keyed by parent docs/s", IMPORT_BY_PARENT, "spread by document", IMPORT_SPREAD, 1.8),
                String.format(Locale.ROOT, "| parent cache hit ratio | %.2f%% | at most %.2f%% on this data (one read per parent) | | ≥ 99%% | %s |",
                        hitRatio * 100, (Double) figures.get(HIT_RATIO_BOUND) * 100, hitRatio >= 0.99 ? "yes" : "NO"),
                row("index job docs/s", INDEX_JOB, "raw _bulk loop", RAW_BULK, 0.9),
                String.format(Locale.ROOT, "| end to end docs/s | %,.0f | | | ≥ 3,000 | %s |", e2e, e2e >= 3000 ? "yes" : "NO"),
                String.format(Locale.ROOT, "| generate job docs/s (into Kafka) | %,.0f | | | | |", median(samples.get(GENERATE_JOB))), "");
        Files.writeString(results.resolve("pipeline.md"), table);
        System.out.println(table);
    }

    private String row(String what, String figure, String baselineName, String baseline, double target) {
        List<Double> ratios = ratios(figure, baseline);
        double ratio = median(ratios);
        return String.format(Locale.ROOT, "| %s | %,.0f | %s %,.0f | %.2f× (%.2f–%.2f) | ≥ %.1f× | %s |", what,
                median(samples.get(figure)), baselineName, median(samples.get(baseline)), ratio,
                ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), target, ratio >= target ? "yes" : "NO");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PipelineBenchmark()).execute(args));
    }
}
