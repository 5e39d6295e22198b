package io.volumizer.benchmarks.pipeline;

import static io.volumizer.benchmarks.pipeline.PipelineTable.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import org.bson.RawBsonDocument;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;

import static io.volumizer.harness.Samples.SUSTAINED;

import io.volumizer.harness.Counts;
import io.volumizer.harness.MeasuredJob;
import io.volumizer.harness.Await;
import io.volumizer.harness.BaselineLoop;
import io.volumizer.harness.ImportedForm;
import io.volumizer.harness.Progress;
import io.volumizer.ops.results.Report;
import io.volumizer.harness.Rounds;
import io.volumizer.harness.Samples;
import io.volumizer.harness.StoreIsolation;
import io.volumizer.harness.StoreIsolationOptions;
import io.volumizer.harness.Through;
import io.volumizer.harness.SessionJobs;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.render.FileText;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.Options;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The pipeline's throughput, each figure against a baseline measured minutes apart in the same run on the same
 * services: the import job against a raw bulk-upsert loop with the official MongoDB driver, keyed by parent against
 * spread by document, the index job against a raw {@code _bulk} loop, and generate → import → index end to end,
 * in rounds on fresh topics and stores; the table reports medians. A job's documents through are those its store
 * holds and those it dead-lettered, each job's on a dead-letter topic of its own, so a measure ends even when its
 * job dead-letters, and says how many; it fails when nothing moves for {@link #STALLED_AFTER}.
 * Writes {@code pipeline.json} and {@code pipeline.md}.
 *
 * <p>bin/volumizer bench pipeline measures a run of 4,000 customers by default (BenchCommand): long enough that the
 * sustained window (50% to 90%) starts after a job's warm-up, as a job's classes are compiled afresh in the session
 * cluster, which took the first ~150,000 documents of an import on these two cores.
 */
@Command(name = "pipeline-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures the pipeline's throughput against baselines of the same run: the import against a raw "
                + "bulk-upsert loop, the index against a raw _bulk loop, and generate, import and index end to end; "
                + "writes pipeline.json and pipeline.md.",
        footer = {"%nExample:", "  bin/volumizer bench pipeline --rounds 1 --parallelism 1"})
public final class PipelineBenchmark extends PipelineRunCommand {

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);
    @Mixin StoreIsolationOptions storeIsolation = new StoreIsolationOptions();

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of every measure; the table shows medians (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--steady-import-rate", defaultValue = "0", description = "Also measures a live repository's delay "
            + "from import to text searchable with the documents generated at this rate, below what the text's job "
            + "reads, as in a repository that takes new documents all day (0, the default: not measured).")
    int steadyImportRate;

    @Option(names = "--text-after-import", description = "Also measures a live repository whose files' text is read "
            + "only once its import and metadata index are through, as when the text's job has hosts of its own: the "
            + "import's path at its own speed, then the text's catch-up with the machine to itself.")
    boolean textAfterImport;

    @Option(names = "--text-scaling", split = ",", description = "Also measures a live repository's files' text "
            + "catching up (as with --text-after-import) at each of these parallelisms, each on a repository of its "
            + "own imported and indexed first: whether a subtask more, on another TaskManager, reads more texts a "
            + "second (start the cluster with FLINK_TASKMANAGERS=2).")
    List<Integer> textScaling = List.of();

    @Option(names = "--text-limit", defaultValue = "0", description = "Also measures a live repository whose text job "
            + "is limited to this many documents a second (bin/volumizer throttle file-text) beside its import on the "
            + "same cores: what an operator leaves the import when the text shares its hosts (0, the default: not "
            + "measured).")
    int textLimit;

    static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(2);
    /**
     * No count of a measure moved for this long: it is stuck, not slow. Longer than a healthy import's quietest
     * stretch, a child parked for the import's longest parent wait (2 minutes by default) and then dead-lettered.
     */
    private static final Duration STALLED_AFTER = Duration.ofMinutes(5);

    final String runId = Long.toString(System.currentTimeMillis(), 36);
    private final Map<String, Object> figures = new LinkedHashMap<>();
    final Samples samples = new Samples();
    FlinkSessionClient flink;
    private GeneratorSettings settings;
    private SessionJobs jobs;
    private final Set<String> databases = new LinkedHashSet<>();
    final Rounds quiet = new Rounds();
    final Await polling = Await.stalledFor(STALLED_AFTER);

    @Override
    protected int run(GeneratorSettings run) throws Exception {
        settings = run;
        // End to end runs generate, import and index at once, and live an index job of the files' text beside them.
        jobs = SessionJobs.open(session, 4 * Math.max(1, pipeline.parallelism), "the benchmark", CANCEL_TIMEOUT).orElse(null);
        if (jobs == null) {
            return 2;
        }
        flink = jobs.flink;
        List<DocumentEvent> generated = new BankGenerator(settings).documents();
        List<ImportedEvent> documents = imported(generated);
        figures.put("documents", documents.size());
        figures.put("rounds", rounds);
        figures.put(HIT_RATIO_BOUND, hitRatioBound(generated));
        long withText = generated.stream()
                .filter(document -> FileText.readable(document.getBlob())).count();
        figures.put("documents with a file's text", withText);
        try (Stores stores = new Stores(pipeline); MongoClient mongo = MongoClients.create(pipeline.mongodb.uri);
             SearchEngine search = SearchEngines.open(pipeline.search)) {
            LivePasses passes = new LivePasses(this);
            Rounds.run(rounds, round -> {
                round(round, documents, stores, mongo, search);
                passes.live(round, documents.size(), withText, stores, mongo, search, 0, 0);
                if (steadyImportRate > 0) {
                    passes.live(round, documents.size(), withText, stores, mongo, search, steadyImportRate, 0);
                }
                if (textLimit > 0) {
                    passes.live(round, documents.size(), withText, stores, mongo, search, 0, textLimit);
                }
                if (textAfterImport) {
                    passes.textAfterImport(round, documents.size(), withText, stores, mongo, search);
                }
                passes.textScaling(round, documents.size(), withText, stores, mongo, search);
            });
            dropDatabases(mongo);
        } finally {
            jobs.close();
        }
        write();
        return 0;
    }

    /**
     * One round on fresh topics, databases and indices: each job next to its baseline, so that the two share the
     * machine's state of the moment as far as possible; odd rounds run the baseline first, even rounds the job, so
     * that neither always inherits what the other left behind (page cache, a grown data file, an index to merge).
     */
    private void round(int round, List<ImportedEvent> documents, Stores stores, MongoClient mongo,
            SearchEngine search) throws Exception {
        long n = documents.size();
        String tag = round + "-" + runId;
        stores.reset(repository(), pipeline.documentsTopic(), pipeline.importedTopic(), pipeline.deadletterTopic());
        search.indices(indices("")).deleteAll();
        dropDatabases(mongo);
        String raw = database("bench_raw", round);
        String parentKeyedDb = database("bench_parent", round);
        String rawIsolated = database("bench_raw_isolated", round);
        String isolatedDb = database("bench_isolated", round);
        String documentKeyedDb = database("bench_document", round);

        quiet.settle();
        long started = System.nanoTime();
        awaitFinished(generate(0));
        sample(GENERATE_JOB, n / ((System.nanoTime() - started) / 1e9));

        quiet.pair(round, () -> record(rawMongo(RAW_MONGODB, mongo, documents, raw)), () -> {
            try (MeasuredJob parentKeyed = submit(stores, IMPORT_BY_PARENT, Step.IMPORT, "--group-id", "bench-parent-" + tag,
                    "--mongodb-database", parentKeyedDb)) {
                record(polling.untilThrough(parentKeyed.through(new Progress(n), () -> count(mongo, parentKeyedDb))));
                double[] hitRatios = hitRatios(parentKeyed.id());
                sample(HIT_RATIO, hitRatios[0]);
                sample(HIT_RATIO_WITH_RETRIES, hitRatios[1]);
                // Stopping (not cancelling) commits the last Kafka transaction: the index job reads all of it.
                flink.stopWithSavepoint(parentKeyed.id(), Duration.ofMinutes(2));
            }
        });

        if (storeIsolation.enabled()) {
            quiet.pair(round, () -> isolated(() -> record(rawMongo(RAW_MONGODB_ISOLATED, mongo, documents, rawIsolated))),
                    () -> isolated(() -> importAside(IMPORT_ISOLATED, "bench-isolated-" + tag, isolatedDb, mongo, stores, n)));
        }

        quiet.settle();
        importAside(IMPORT_SPREAD, "bench-document-" + tag, documentKeyedDb, mongo, stores, n, "--partition-by", "document");

        quiet.pair(round, () -> record(rawBulk(search, stores, documents)), () -> {
            try (MeasuredJob index = submit(stores, INDEX_JOB, Step.INDEX, "--index-group-id", "bench-index-" + tag,
                    "--index-prefix", indices("job-").prefix())) {
                record(polling.untilThrough(index.through(new Progress(n), () -> esCount(stores, indices("job-")))));
                flink.cancel(index.id(), CANCEL_TIMEOUT);
            }
        });

        stores.reset(repository(), pipeline.documentsTopic(), pipeline.importedTopic());
        dropDatabases(mongo);
        String endToEndDb = database("bench_e2e", round);
        quiet.settle();
        try (MeasuredJob e2eImport = submit(stores, END_TO_END_IMPORT, Step.IMPORT, "--group-id", "bench-e2e-import-" + tag,
                    "--mongodb-database", endToEndDb);
                MeasuredJob e2eIndex = submit(stores, END_TO_END_INDEX, Step.INDEX, "--index-group-id",
                        "bench-e2e-index-" + tag, "--index-prefix", indices("e2e-").prefix())) {
            Through imported = e2eImport.through(Progress.startingNow(n), () -> count(mongo, endToEndDb));
            Through indexed = e2eIndex.throughAfter(e2eImport, Progress.startingNow(n), () -> esCount(stores, indices("e2e-")));
            generate(0);
            polling.untilThrough(List.of(imported, indexed), () -> { });
            // The index stage reads what the import committed at its last checkpoint, so it follows in bursts and
            // catches up at full speed once the import is done: its own sustained rate alone would overstate the run's.
            record(imported);
            record(indexed);
            sample(END_TO_END, indexed.progress().rate());
            sample(END_TO_END + SUSTAINED, Math.min(imported.progress().sustainedRate(), indexed.progress().sustainedRate()));
            flink.cancel(e2eImport.id(), CANCEL_TIMEOUT);
            flink.cancel(e2eIndex.id(), CANCEL_TIMEOUT);
        }
    }

    /**
     * An import measured on its own, into its own database, until every document is through; its imported events
     * go to a topic nothing reads, so that they do not double the index job's input.
     */
    private void importAside(String what, String groupId, String database, MongoClient mongo, Stores stores, long n,
            String... options) throws Exception {
        String[] overrides = Stream.concat(Stream.of("--group-id", groupId, "--mongodb-database", database,
                "--imported-topic", pipeline.importedTopic() + ".unused"), Stream.of(options)).toArray(String[]::new);
        try (MeasuredJob job = submit(stores, what, Step.IMPORT, overrides)) {
            record(polling.untilThrough(job.through(new Progress(n), () -> count(mongo, database))));
            flink.cancel(job.id(), CANCEL_TIMEOUT);
        }
    }

    /**
     * Submits a measure's job with its dead letters on a topic of the measure's own, emptied first: the measure
     * counts exactly its job's, from the stores.
     */
    MeasuredJob submit(Stores stores, String what, Step step, String... options) throws Exception {
        String deadLetterTopic = pipeline.deadletterTopic() + "." + what.replaceAll("[^a-z0-9]+", "-");
        stores.deleteTopics(deadLetterTopic);
        String id = run(step, args(Stream.concat(Stream.of(options), Stream.of("--deadletter-topic", deadLetterTopic))
                .toArray(String[]::new)));
        return new MeasuredJob(what, id, stores.committedRecordCount(deadLetterTopic));
    }

    /** A measure with the store on cores of its own ({@link StoreIsolation}). */
    private void isolated(Rounds.Measure measure) throws Exception {
        try (StoreIsolation isolation = storeIsolation.isolate(LocalServices.ofThisCheckout())) {
            measure.run();
        }
    }


    /**
     * 1 - first MongoDB lookups / documents resolved with a parent, and the same with the lookups again (of a parent
     * not written yet when looked up) counted as misses too, whose number follows the wall-clock time children wait,
     * so the import's speed; REST serves metrics a moment after they change, so it retries.
     */
    private double[] hitRatios(String job) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            long resolved = flink.metricSum(job, "", MetricNames.RESOLVED_WITH_PARENT);
            long misses = flink.metricSum(job, "", MetricNames.PARENT_CACHE_MISSES);
            long retries = flink.metricSum(job, "", MetricNames.PARENT_LOOKUP_RETRIES);
            if (resolved > 0) {
                return new double[] {1 - (double) misses / resolved, 1 - (double) (misses + retries) / resolved};
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("job " + job + " reports no parent cache metrics");
    }

    /**
     * The hit ratio on this data if the first child of each parent read it once from MongoDB:
     * 1 - distinct parents / documents that have a parent. Parents resolved in their children's subtask need no read.
     */
    private static double hitRatioBound(List<DocumentEvent> documents) {
        long withParent = documents.stream().filter(d -> d.getParentId() != null).count();
        long parents = documents.stream().map(DocumentEvent::getParentId).filter(Objects::nonNull).distinct().count();
        return 1 - (double) parents / withParent;
    }

    private static List<ImportedEvent> imported(List<DocumentEvent> documents) {
        ImportedForm form = new ImportedForm();
        return documents.stream().map(form::of).toList();
    }

    /**
     * A one-off script's import: unordered bulk upserts by id, 1,000 per request, into a collection with the same
     * navigation indexes the import job creates (index upkeep is part of the work either way).
     */
    private Through rawMongo(String what, MongoClient mongo, List<ImportedEvent> documents, String database) throws Exception {
        MongoDocumentStore store = new MongoDocumentStore(MongoRepositories.sharing(mongo, database), Backoff.DEFAULT);
        store.ensureIndexes(repository());
        // The same stored bytes the job sends: the loop's client pays no more than the job's to encode them.
        var collection = store.collection(repository()).withDocumentClass(RawBsonDocument.class);
        return BaselineLoop.measure(polling, what, documents.size(), () -> count(mongo, database), () -> {
            for (int from = 0; from < documents.size(); from += 1000) {
                List<ImportedEvent> batch = documents.subList(from, Math.min(from + 1000, documents.size()));
                collection.bulkWrite(batch.stream().map(document -> new ReplaceOneModel<>(
                        Filters.eq("_id", document.getDocument().getId()), MongoDocumentStore.toBson(document),
                        new ReplaceOptions().upsert(true))).toList(),
                        new BulkWriteOptions().ordered(false));
            }
        });
    }

    private Through rawBulk(SearchEngine search, Stores stores, List<ImportedEvent> documents) throws Exception {
        return BaselineLoop.rawBulk(polling, RAW_BULK, search.indices(indices("raw-")), documents,
                () -> esCount(stores, indices("raw-")));
    }

    private String run(Step step, List<String> args) throws Exception {
        return jobs.run(step, args);
    }

    /** Submits the generate job of the measured run, at most {@code maxDocsPerSecond} (0: no limit). */
    String generate(int maxDocsPerSecond) throws Exception {
        List<String> arguments = new ArrayList<>(generateArguments());
        if (maxDocsPerSecond > 0) {
            arguments.addAll(List.of("--max-docs-per-second", Integer.toString(maxDocsPerSecond)));
        }
        return run(Step.GENERATE, arguments);
    }

    String repository() {
        return settings.repository();
    }

    /** The indices of one kind of run (raw loop, job, end to end), apart from every other index. */
    IndexNames indices(String kind) {
        return new IndexNames(repository() + "-" + kind);
    }

    private void awaitFinished(String job) throws Exception {
        flink.awaitState(job, "FINISHED", Duration.ofMinutes(10));
    }

    long count(MongoClient mongo, String database) {
        return mongo.getDatabase(database).getCollection(repository()).estimatedDocumentCount();
    }

    long fileTexts(Stores stores, IndexNames indices) {
        return Counts.orFail(() -> stores.searchableFileTexts(indices, repository()));
    }

    long esCount(Stores stores, IndexNames indices) {
        return Counts.orFail(() -> stores.searchableCount(indices, repository()));
    }

    /**
     * A database of this run and round, dropped by {@link #dropDatabases}. Never a name used before: the local
     * stand-in once failed to drop a database (an index it did not list) and recreated it later over the old index,
     * which turned the next run's writes into duplicate-key errors.
     */
    String database(String name, int round) {
        String database = name + "_" + runId + "_" + round;
        databases.add(database);
        return database;
    }

    void dropDatabases(MongoClient mongo) {
        for (String database : databases) {
            try {
                mongo.getDatabase(database).drop();
            } catch (MongoException e) {
                System.err.printf(Locale.ROOT, "  could not drop database %s, left in the store: %s%n", database, e.getMessage());
            }
        }
        databases.clear();
    }

    private List<String> args(String... options) {
        return Options.with(pipeline, options);
    }

    void record(Through through) {
        samples.record(through);
    }

    void sample(String what, double value) {
        samples.add(what, value);
    }

    private void write() throws Exception {
        figures.put("date", Report.date());
        figures.put("machine", Report.cores() + " cores, " + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " MiB max heap of the runner, every service on this machine");
        figures.put("samples per round", samples);
        String table = PipelineTable.markdown(this, settings, figures);
        Report.write(results.folder, "pipeline", figures, table);
        System.out.println(table);
    }
}
