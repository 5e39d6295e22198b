package io.volumizer.benchmarks.pipeline;

import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import org.bson.RawBsonDocument;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;

import static io.volumizer.benchmarks.harness.Samples.SUSTAINED;

import io.volumizer.benchmarks.harness.Await;
import io.volumizer.benchmarks.harness.BaselineLoop;
import io.volumizer.benchmarks.harness.ImportedForm;
import io.volumizer.benchmarks.harness.Progress;
import io.volumizer.benchmarks.harness.Report;
import io.volumizer.benchmarks.harness.Rounds;
import io.volumizer.benchmarks.harness.Samples;
import io.volumizer.benchmarks.harness.StoreIsolation;
import io.volumizer.benchmarks.harness.StoreIsolationOptions;
import io.volumizer.benchmarks.harness.Through;
import io.volumizer.benchmarks.harness.UnfinishedJobs;
import io.volumizer.domain.topology.LiveTopology;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.render.FileText;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.stores.CommittedRecordCount;
import io.volumizer.ops.stores.Stores;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.Options;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.options.steps.IndexSettings;
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
 * <p>bin/volumizer bench pipeline measures a run of BENCH_CUSTOMERS (conf/volumizer.conf): long enough that the
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

    private static final String GENERATE_JOB = "generate job (into Kafka)";
    private static final String RAW_MONGODB = "raw MongoDB bulk upsert loop (baseline)";
    private static final String IMPORT_BY_PARENT = "import job, keyed by parent";
    private static final String IMPORT_SPREAD = "import job, spread by document";
    private static final String RAW_MONGODB_ISOLATED = "raw MongoDB bulk upsert loop (baseline), store on its own cores";
    private static final String IMPORT_ISOLATED = "import job, keyed by parent, store on its own cores";
    private static final String HIT_RATIO = "parent cache hit ratio, keyed by parent";
    private static final String HIT_RATIO_BOUND = "parent cache hit ratio, bound of this data";
    private static final String HIT_RATIO_WITH_RETRIES = "parent cache hit ratio, lookups again counted as misses";
    private static final String RAW_BULK = "raw Elasticsearch _bulk loop (baseline)";
    private static final String INDEX_JOB = "index job";
    private static final String END_TO_END = "end to end generate -> import -> index";
    private static final String END_TO_END_IMPORT = "end to end, its import stage";
    private static final String END_TO_END_INDEX = "end to end, its index stage";
    private static final String LIVE_IMPORT = "live end to end, its import stage";
    private static final String LIVE_INDEX = "live end to end, its metadata index stage";
    private static final String LIVE_TEXT = "live end to end, its files' text";
    private static final String TEXT_DELAY = "live end to end, seconds from import to text searchable, p";
    private static final String STEADY_TEXT_DELAY = "live end to end, steady import, seconds from import to text searchable, p";
    private static final String LIMITED_IMPORT = "live, text job limited, its import stage";
    private static final String LIMITED_INDEX = "live, text job limited, its metadata index stage";
    private static final String LIMITED_TEXT = "live, text job limited, its files' text";
    private static final String LIMITED_TEXT_DELAY = "live, text job limited, seconds from import to text searchable, p";
    private static final String AFTER_IMPORT = "live, text after the import, its import stage";
    private static final String AFTER_INDEX = "live, text after the import, its metadata index stage";
    private static final String AFTER_TEXT = "live, text after the import, its files' text catching up";

    private static final String SCALED_TEXT = "live, files' text catching up at parallelism ";
    private static final String TASK_MANAGERS = ", TaskManagers";
    private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(2);
    /**
     * No count of a measure moved for this long: it is stuck, not slow. Longer than a healthy import's quietest
     * stretch, a child parked for the import's longest parent wait (2 minutes by default) and then dead-lettered.
     */
    private static final Duration STALLED_AFTER = Duration.ofMinutes(5);

    private final String runId = Long.toString(System.currentTimeMillis(), 36);
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final Samples samples = new Samples();
    private FlinkSessionClient flink;
    private GeneratorSettings settings;
    private String jarId;
    private final List<String> jobs = new ArrayList<>();
    private final Set<String> databases = new LinkedHashSet<>();
    private final Rounds quiet = new Rounds();
    private final Await polling = Await.stalledFor(STALLED_AFTER);

    @Override
    protected int run(GeneratorSettings run) throws Exception {
        settings = run;
        flink = session.client();
        // End to end runs generate, import and index at once, and live an index job of the files' text beside them;
        // without the slots a job restarts until a timeout.
        int slotsNeeded = 4 * Math.max(1, pipeline.parallelism);
        int freeSlots = flink.freeSlots();
        if (freeSlots < slotsNeeded) {
            System.err.printf(Locale.ROOT, "the benchmark needs %d free task slots, %s has %d: stop the running jobs "
                    + "(bin/volumizer job list) and try again%n", slotsNeeded, session.flink.rest, freeSlots);
            return 2;
        }
        jarId = flink.uploadJar(session.jar);
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
            Rounds.run(rounds, round -> {
                round(round, documents, stores, mongo, search);
                live(round, documents.size(), withText, stores, mongo, search, 0, 0);
                if (steadyImportRate > 0) {
                    live(round, documents.size(), withText, stores, mongo, search, steadyImportRate, 0);
                }
                if (textLimit > 0) {
                    live(round, documents.size(), withText, stores, mongo, search, 0, textLimit);
                }
                if (textAfterImport) {
                    textAfterImport(round, documents.size(), withText, stores, mongo, search);
                }
                textScaling(round, documents.size(), withText, stores, mongo, search);
            });
            dropDatabases(mongo);
        } finally {
            UnfinishedJobs.cancel(flink, jobs, CANCEL_TIMEOUT);
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
     * End to end again into a repository of the live profile: its import and its metadata index next to the metadata
     * profile's of the round, its files' text (counted searchable by {@code fileTextIndexed}) as it follows, read by
     * an index job of its own ({@code --file-text only}, the metadata's {@code none}), and the delay from a
     * document's import to its text being searchable, each percent of them ({@link Progress#delaysSeconds}). With a
     * {@code generateRate} (docs/s, 0: none), only that delay is recorded, of documents generated at that rate. With a
     * {@code textJobLimit} (docs/s, 0: none), the text job obeys that limit on its throttle ({@code file-text}), set
     * for the pass and lifted after it.
     */
    private void live(int round, long n, long withText, Stores stores, MongoClient mongo, SearchEngine search,
            int generateRate, int textJobLimit) throws Exception {
        // index prefixes apart: templates of overlapping patterns clash
        String kind = generateRate > 0 ? "steady" : textJobLimit > 0 ? "limited" : "live";
        boolean limited = textJobLimit > 0;
        LiveRepository live = liveRepository(round, kind, n, stores, mongo, search);
        ThrottleSettings throttles = new ThrottleSettings(pipeline.kafka.clientProperties(), pipeline.registry.url,
                pipeline.controlTopic(), pipeline.topicSettings);
        try {
            if (limited) {
                throttles.change(IndexSettings.FileText.THROTTLE_TARGET,
                        new ThrottleSettings.Change.Setting(textJobLimit, false), "pipeline benchmark");
            }
            livePass(live, withText, stores, mongo, generateRate, limited);
        } finally {
            if (limited) {
                throttles.change(IndexSettings.FileText.THROTTLE_TARGET, new ThrottleSettings.Change.Setting(0, false),
                        "pipeline benchmark");
            }
        }
    }

    /** {@link #live}'s jobs on {@code live}, measured as it says, those of a limited text job under their own names. */
    private void livePass(LiveRepository live, long withText, Stores stores, MongoClient mongo, int generateRate,
            boolean limited) throws Exception {
        quiet.settle();
        try (MeasuredJob liveImport = live.importJob(stores, limited ? LIMITED_IMPORT : LIVE_IMPORT);
                MeasuredJob liveIndex = live.indexJob(stores, limited ? LIMITED_INDEX : LIVE_INDEX,
                        IndexSettings.FileText.none);
                MeasuredJob liveText = live.indexJob(stores, limited ? LIMITED_TEXT : LIVE_TEXT,
                        IndexSettings.FileText.only)) {
            Through imported = live.imported(liveImport, mongo);
            Through indexed = live.indexed(liveImport, liveIndex, stores);
            Through texts = live.texts(liveText, withText, stores);
            generate(generateRate);
            polling.untilThrough(List.of(imported, indexed, texts), () -> { });
            if (generateRate == 0) {
                record(imported);
                record(indexed);
                record(texts);
            }
            // Percentiles of the delays of each percent of the documents (they need not grow in the import's order).
            List<Double> delays = Progress.delaysSeconds(imported.progress(), texts.progress()).stream().sorted().toList();
            String delay = generateRate > 0 ? STEADY_TEXT_DELAY : limited ? LIMITED_TEXT_DELAY : TEXT_DELAY;
            sample(delay + "50", delays.get(49));
            sample(delay + "95", delays.get(94));
            System.out.printf(Locale.ROOT, "%-45s p50 %.1f s, p95 %.1f s%n", "text searchable after import"
                    + (generateRate > 0 ? " (" + generateRate + " docs/s)" : limited ? " (text limited)" : ""),
                    delays.get(49), delays.get(94));
            for (MeasuredJob job : List.of(liveImport, liveIndex, liveText)) {
                flink.cancel(job.id(), CANCEL_TIMEOUT);
            }
        }
    }

    /**
     * A live repository whose files' text is read only once its import and metadata index are through: the import and
     * that index next to the metadata profile's of the round, the live profile's work on the import's path without
     * the text's beside it (a text job on hosts of its own; this machine has none to give it), then the text job
     * catching up on the imported topic with the machine to itself.
     */
    private void textAfterImport(int round, long n, long withText, Stores stores, MongoClient mongo, SearchEngine search)
            throws Exception {
        LiveRepository live = liveRepository(round, "after", n, stores, mongo, search);
        quiet.settle();
        importAndIndexMetadata(live, stores, mongo, true);
        quiet.settle();
        try (MeasuredJob text = live.indexJob(stores, AFTER_TEXT, IndexSettings.FileText.only)) {
            record(polling.untilThrough(live.texts(text, withText, stores)));
            flink.cancel(text.id(), CANCEL_TIMEOUT);
        }
    }

    /**
     * The files' text catching up at each {@code --text-scaling} parallelism, each on a live repository of its own
     * whose import and metadata index ran first (not measured), with the TaskManagers its subtasks ran on.
     */
    private void textScaling(int round, long n, long withText, Stores stores, MongoClient mongo, SearchEngine search)
            throws Exception {
        for (int parallelism : textScaling) {
            LiveRepository live = liveRepository(round, "text-" + parallelism, n, stores, mongo, search);
            importAndIndexMetadata(live, stores, mongo, false);
            quiet.settle();
            String what = SCALED_TEXT + parallelism;
            try (MeasuredJob text = live.indexJob(stores, what, IndexSettings.FileText.only, "--parallelism",
                    Integer.toString(parallelism))) {
                record(polling.untilThrough(live.texts(text, withText, stores)));
                // Once every text is through, every task has long been deployed to its TaskManager.
                sample(what + TASK_MANAGERS, flink.taskManagers(text.id()).size());
                flink.cancel(text.id(), CANCEL_TIMEOUT);
            }
        }
    }

    /** A live repository's import and metadata index until every document is through both, recorded or not. */
    private void importAndIndexMetadata(LiveRepository live, Stores stores, MongoClient mongo, boolean recorded)
            throws Exception {
        try (MeasuredJob liveImport = live.importJob(stores, AFTER_IMPORT);
                MeasuredJob liveIndex = live.indexJob(stores, AFTER_INDEX, IndexSettings.FileText.none)) {
            Through imported = live.imported(liveImport, mongo);
            Through indexed = live.indexed(liveImport, liveIndex, stores);
            generate(0);
            polling.untilThrough(List.of(imported, indexed), () -> { });
            if (recorded) {
                record(imported);
                record(indexed);
            }
            flink.cancel(liveImport.id(), CANCEL_TIMEOUT);
            flink.cancel(liveIndex.id(), CANCEL_TIMEOUT);
        }
    }

    /** A pass's live repository, on fresh topics, a database and indices of its {@code kind}. */
    private LiveRepository liveRepository(int round, String kind, long n, Stores stores, MongoClient mongo,
            SearchEngine search) throws Exception {
        String tag = round + "-" + runId + "-" + kind;
        stores.reset(repository(), pipeline.documentsTopic(), pipeline.importedTopic());
        dropDatabases(mongo);
        LiveRepository live = new LiveRepository(tag, LiveTopology.file("bench-" + tag, repository()).toString(),
                database("bench_" + kind, round), indices(kind + "-"), n);
        search.indices(live.indices()).deleteAll();
        return live;
    }

    /** A live repository of a pass: its topology file, database and indices, and its jobs' measures. */
    private final class LiveRepository {

        private final String tag;
        private final String topology;
        private final String database;
        private final IndexNames indices;
        private final long documents;

        LiveRepository(String tag, String topology, String database, IndexNames indices, long documents) {
            this.tag = tag;
            this.topology = topology;
            this.database = database;
            this.indices = indices;
            this.documents = documents;
        }

        IndexNames indices() {
            return indices;
        }

        MeasuredJob importJob(Stores stores, String what) throws Exception {
            return submit(stores, what, Step.IMPORT, "--group-id", "bench-live-import-" + tag, "--mongodb-database",
                    database, "--topology", topology);
        }

        /** An index job of the metadata alone ({@code none}) or of the files' text alone ({@code only}). */
        MeasuredJob indexJob(Stores stores, String what, IndexSettings.FileText fileText, String... options)
                throws Exception {
            return submit(stores, what, Step.INDEX, Stream.concat(Stream.of("--index-group-id",
                    "bench-live-index-" + fileText + "-" + tag, "--index-prefix", indices.prefix(), "--topology",
                    topology, "--file-text", fileText.name(), "--mongodb-database", database), Stream.of(options))
                    .toArray(String[]::new));
        }

        Through imported(MeasuredJob importJob, MongoClient mongo) {
            return importJob.through(Progress.startingNow(documents), () -> count(mongo, database));
        }

        Through indexed(MeasuredJob importJob, MeasuredJob indexJob, Stores stores) {
            return indexJob.throughAfter(importJob, Progress.startingNow(documents), () -> esCount(stores, indices));
        }

        Through texts(MeasuredJob textJob, long withText, Stores stores) {
            return Through.stored(textJob.what(), Progress.startingNow(withText), () -> fileTexts(stores, indices));
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

    /** A measure's job, and the count of its dead letters. */
    private record MeasuredJob(String what, String id, CommittedRecordCount deadLetters) implements AutoCloseable {

        /** What the job has taken through: the documents {@code stored} and those it dead-lettered. */
        Through through(Progress progress, LongSupplier stored) {
            return new Through(what, progress, stored, deadLetters::count);
        }

        /**
         * What the job has taken through of what {@code upstream} passed on: a document the upstream job dead-lettered
         * never reaches this one, so it is through this stage too.
         */
        Through throughAfter(MeasuredJob upstream, Progress progress, LongSupplier stored) {
            return new Through(what, progress, stored, () -> upstream.deadLetters().count() + deadLetters.count());
        }

        @Override
        public void close() {
            deadLetters.close();
        }
    }

    /**
     * Submits a measure's job with its dead letters on a topic of the measure's own, emptied first: the measure
     * counts exactly its job's, from the stores.
     */
    private MeasuredJob submit(Stores stores, String what, Step step, String... options) throws Exception {
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
        String id = flink.run(jarId, step, args, null);
        jobs.add(id);
        return id;
    }

    /** Submits the generate job of the measured run, at most {@code maxDocsPerSecond} (0: no limit). */
    private String generate(int maxDocsPerSecond) throws Exception {
        List<String> arguments = new ArrayList<>(generateArguments());
        if (maxDocsPerSecond > 0) {
            arguments.addAll(List.of("--max-docs-per-second", Integer.toString(maxDocsPerSecond)));
        }
        return run(Step.GENERATE, arguments);
    }

    private String repository() {
        return settings.repository();
    }

    /** The indices of one kind of run (raw loop, job, end to end), apart from every other index. */
    private IndexNames indices(String kind) {
        return new IndexNames(repository() + "-" + kind);
    }

    private void awaitFinished(String job) throws Exception {
        flink.awaitState(job, "FINISHED", Duration.ofMinutes(10));
    }

    private long count(MongoClient mongo, String database) {
        return mongo.getDatabase(database).getCollection(repository()).estimatedDocumentCount();
    }

    private long fileTexts(Stores stores, IndexNames indices) {
        return searchable(() -> stores.searchableFileTexts(indices, repository()));
    }

    private long esCount(Stores stores, IndexNames indices) {
        return searchable(() -> stores.searchableCount(indices, repository()));
    }

    /** A count of the search engine's, for polling: a failure to count fails the measure. */
    private static long searchable(Callable<Long> count) {
        try {
            return count.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A database of this run and round, dropped by {@link #dropDatabases}. Never a name used before: the local
     * stand-in once failed to drop a database (an index it did not list) and recreated it later over the old index,
     * which turned the next run's writes into duplicate-key errors.
     */
    private String database(String name, int round) {
        String database = name + "_" + runId + "_" + round;
        databases.add(database);
        return database;
    }

    private void dropDatabases(MongoClient mongo) {
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

    private void record(Through through) {
        samples.record(through);
    }

    private void sample(String what, double value) {
        samples.add(what, value);
    }

    private void write() throws Exception {
        Files.createDirectories(results.folder);
        figures.put("date", LocalDate.now().toString());
        figures.put("machine", Runtime.getRuntime().availableProcessors() + " cores, "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB max heap of the runner, every service on this machine");
        figures.put("samples per round", samples);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(results.folder.resolve("pipeline.json").toFile(), figures);
        double hitRatio = samples.median(HIT_RATIO);
        String table = String.join("\n",
                "# Pipeline benchmarks", "",
                "Measured " + figures.get("date") + " on " + figures.get("machine") + "; " + figures.get("documents")
                        + " documents per run (" + settings.customers() + " customers, " + settings.statementsPerAccount()
                        + " statements per account), job parallelism "
                        + pipeline.parallelism + ".",
                "Each figure is the median of " + rounds + " rounds; each ratio is the median of the rounds' ratios "
                        + "(job and baseline measured one after the other in the same round: the baseline first in odd "
                        + "rounds, the job first in even ones), with its range. Every measure "
                        + "starts once the machine is quiet (at most 15% busy over a second), not in the merges and "
                        + "flushes of the one before.",
                "*Sustained* is the rate between 50% and 90% of the documents, past a job's warm-up: the one a run of billions would see; "
                        + "*whole run* also counts a job's start (new classes, empty caches) and its tail. "
                        + "Targets are judged on the sustained rate. End to end, the sustained rate is the slower of its "
                        + "import and index stages' in that run: the index stage reads what the import committed at "
                        + "its last checkpoint, so it follows in bursts and catches up at full speed at the end.",
                "A job's documents through are those its store holds and those it dead-lettered (counted on a "
                        + "dead-letter topic of the measure's own); each job's row says how many it dead-lettered "
                        + "(median of the rounds, with their range where they differ): a rate with dead letters is not "
                        + "that of a run that stored every document.",
                "The import and its loop are measured twice: with every service on the same cores, where whatever "
                        + "CPU the job spends (Kafka in and out, decoding, the shuffle, checkpoints) is taken from the "
                        + "store it writes to, and with MongoDB on cores of its own (taskset; every other service and "
                        + "the runner on the rest), as a store runs on hosts of its own.", "",
                "| measure | docs/s sustained (whole run) | baseline, docs/s sustained (whole run) | ratio sustained (range) | ratio whole run (range) | target | met |",
                "|---|---|---|---|---|---|---|",
                samples.row("import job, every service on the same cores", IMPORT_BY_PARENT, "raw bulk-upsert loop", RAW_MONGODB, 0.9),
                storeIsolation.enabled() ? samples.row("import job, MongoDB on cores of its own (cores " + StoreIsolation.storeCores(Report.cores())
                        + ", the rest on " + StoreIsolation.otherCores(Report.cores()) + ")", IMPORT_ISOLATED, "raw bulk-upsert loop, same", RAW_MONGODB_ISOLATED, 0.9)
                        : "| import job, MongoDB on cores of its own | not measured (no --store-service) | | | | ≥ 0.9× | |",
                samples.row("import keyed by parent", IMPORT_BY_PARENT, "spread by document", IMPORT_SPREAD, 1.8),
                String.format(Locale.ROOT, "| parent cache hit ratio | %.2f%% | %.2f%% on this data if every parent were read once from MongoDB | | | ≥ 99%% | %s |",
                        hitRatio * 100, (Double) figures.get(HIT_RATIO_BOUND) * 100, hitRatio >= 0.99 ? "yes" : "NO"),
                String.format(Locale.ROOT, "| — with each lookup again of a parent not written yet counted as a miss "
                        + "(the definition until 2026-11-24) | %.2f%% | | | | | |",
                        samples.median(HIT_RATIO_WITH_RETRIES) * 100),
                samples.row("index job", INDEX_JOB, "raw _bulk loop", RAW_BULK, 0.9),
                String.format(Locale.ROOT, "| end to end, generate → import → index | %s | | | | ≥ 3,000 docs/s | %s |",
                        samples.rates(END_TO_END), samples.median(END_TO_END + SUSTAINED) >= 3000 ? "yes" : "NO"),
                String.format(Locale.ROOT, "| — its import stage | %s | | | | | |", samples.rates(END_TO_END_IMPORT)),
                String.format(Locale.ROOT, "| — its index stage | %s | | | | | |", samples.rates(END_TO_END_INDEX)),
                samples.row("live profile end to end: its import stage", LIVE_IMPORT, "metadata profile's, same round",
                        END_TO_END_IMPORT, 0.9),
                samples.row("— its metadata index stage", LIVE_INDEX, "metadata profile's, same round", END_TO_END_INDEX, 0.9),
                String.format(Locale.ROOT, "| — its files' text (%,d of the documents: statements' PDF, letters' DOCX) "
                        + "| %s | | | | | |", (Long) figures.get("documents with a file's text"), samples.rates(LIVE_TEXT)),
                String.format(Locale.ROOT, "| — files' text read and indexed per core of this machine (%d cores, "
                        + "every service on them) | %,.0f (%,.0f) | | | | | |", Report.cores(),
                        samples.median(LIVE_TEXT + SUSTAINED) / Report.cores(), samples.median(LIVE_TEXT) / Report.cores()),
                String.format(Locale.ROOT, "| — from a document's import to its text searchable, p50 / p95 | %.1f s / %.1f s "
                        + "| | | | | |", samples.median(TEXT_DELAY + "50"), samples.median(TEXT_DELAY + "95")),
                steadyImportRate <= 0 ? "| — the same under a steady import | not measured (no --steady-import-rate) | | | | | |"
                        : String.format(Locale.ROOT, "| — the same, the documents generated at %,d a second | %.1f s / %.1f s "
                        + "| | | | | |", steadyImportRate, samples.median(STEADY_TEXT_DELAY + "50"),
                        samples.median(STEADY_TEXT_DELAY + "95")),
                textLimit > 0 ? String.join("\n",
                        samples.row("live profile, its text job limited to " + String.format(Locale.ROOT, "%,d", textLimit)
                                + " docs/s beside the import (bin/volumizer throttle file-text): its import stage",
                                LIMITED_IMPORT, "metadata profile's, same round", END_TO_END_IMPORT, 0.9),
                        samples.row("— its metadata index stage", LIMITED_INDEX, "metadata profile's, same round",
                                END_TO_END_INDEX, 0.9),
                        String.format(Locale.ROOT, "| — its files' text | %s | | | | | |", samples.rates(LIMITED_TEXT)),
                        String.format(Locale.ROOT, "| — from a document's import to its text searchable, p50 / p95 "
                                + "| %.1f s / %.1f s | | | | | |", samples.median(LIMITED_TEXT_DELAY + "50"),
                                samples.median(LIMITED_TEXT_DELAY + "95")))
                        : "| live profile, its text job limited | not measured (no --text-limit) | | | | | |",
                textAfterImport ? String.join("\n",
                        samples.row("live profile, its text after the import (as a text job on hosts of its own would leave the "
                                + "import's cores): its import stage", AFTER_IMPORT, "metadata profile's, same round",
                                END_TO_END_IMPORT, 0.9),
                        samples.row("— its metadata index stage", AFTER_INDEX, "metadata profile's, same round",
                                END_TO_END_INDEX, 0.9),
                        String.format(Locale.ROOT, "| — then its files' text catching up, the machine to itself | %s "
                                + "(%,.0f a core sustained) | | | | | |", samples.rates(AFTER_TEXT),
                                samples.median(AFTER_TEXT + SUSTAINED) / Report.cores()))
                        : "| live profile, its text after the import | not measured (no --text-after-import) | | | | | |",
                textScaling.isEmpty() ? "| live profile, its text at other parallelisms | not measured (no --text-scaling) | | | | | |"
                        : textScaling.stream().map(parallelism -> samples.row("live profile, its files' text catching up at "
                                + "parallelism " + parallelism + " (on " + Math.round(samples.median(SCALED_TEXT
                                + parallelism + TASK_MANAGERS)) + " TaskManagers)", SCALED_TEXT + parallelism,
                                "at parallelism " + textScaling.get(0), SCALED_TEXT + textScaling.get(0), null))
                                .collect(java.util.stream.Collectors.joining("\n")),
                String.format(Locale.ROOT, "| generate job (into Kafka), whole run | %,.0f | | | | | |",
                        samples.median(GENERATE_JOB)), "");
        Files.writeString(results.folder.resolve("pipeline.md"), table);
        System.out.println(table);
    }
}
