package io.volumizer.benchmarks.calibration;

import static io.volumizer.harness.Stats.median;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import org.bson.BsonDocument;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.volumizer.api.commands.Commands;
import io.volumizer.harness.Counts;
import io.volumizer.harness.ProcessCpu;
import io.volumizer.harness.ReindexMeasure;
import io.volumizer.harness.ImportedForm;
import io.volumizer.harness.SessionJobs;
import io.volumizer.harness.Await;
import io.volumizer.ops.results.Report;
import io.volumizer.harness.Progress;
import io.volumizer.harness.QuietMachine;
import io.volumizer.harness.StoreIsolation;
import io.volumizer.harness.Through;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.plan.PlanComparison;
import io.volumizer.ops.plan.Calibration;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.CommittedRecordCount;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.IndexProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a document costs on this machine, for the capacity planner ({@code bin/volumizer plan}): a generated run
 * through the pipeline's jobs one stage at a time (import; then, for each index profile, the index job and a
 * reindex), each stage's CPU time read from the services' processes (less what they spend idle, measured just
 * before); each document type's bytes in MongoDB (its stored BSON, its index entries), in the search engine (a
 * sample of the type written alone into an index of each profile with the index stage's own writer, merged, less an
 * empty index's bytes) and its file's; and the bytes an event takes in Kafka's log. Writes {@code calibration.json}
 * (a {@link Calibration}) and {@code calibration.md}, then the planner's answers for the published workloads beside
 * their layouts ({@link PlanComparison}).
 */
@Command(name = "calibration-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures what a document costs on this machine (CPU per stage, bytes per store) for bin/volumizer "
                + "plan; writes calibration.json, calibration.md and the planner's answers for the published workloads.",
        footer = {"%nExample:", "  bin/volumizer bench calibrate"})
public final class CalibrationBenchmark extends PipelineRunCommand {

    private static final Duration STALLED_AFTER = Duration.ofMinutes(5);
    private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(2);
    /** How long the services' idle CPU is measured before each stage. */
    static final Duration IDLE = Duration.ofSeconds(5);
    /** The window of a stage's documents its CPU is read over: past its job's start, before its tail. */
    static final double WINDOW_FROM = 0.1;
    static final double WINDOW_TO = 0.9;
    private static final int REINDEX_RANGE = 1000;
    private static final List<Integer> PARALLELISMS = List.of(1, 2);
    private static final String FLINK_SERVICES = "flink-";
    private static final String MONGODB_SERVICE = "mongodb";
    private static final List<String> KAFKA_SERVICES = List.of("kafka", "registry");

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--search-service", defaultValue = "elasticsearch", description = "The local service that is "
            + "the search engine --search-url names, whose CPU is the engine's (default: ${DEFAULT-VALUE}).")
    String searchService;

    @Option(names = "--sample", defaultValue = "5000", description = "Documents of each type written on their own "
            + "into an index of each profile, to measure their size (default: ${DEFAULT-VALUE}).")
    int sample;

    @Option(names = "--rounds", defaultValue = "3", description = "Runs of every stage; each CPU figure is the median "
            + "of the rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--linearity", description = "Also run the import with MongoDB on a core of its own, and the "
            + "index job with the search engine on a core of its own, each at parallelism 1 then 2: whether a "
            + "document's cost stays what the planner multiplies when a stage runs on more slots.")
    boolean linearity;

    private final String runId = Long.toString(System.currentTimeMillis(), 36);
    private final Await polling = Await.stalledFor(STALLED_AFTER);
    private final QuietMachine quiet = QuietMachine.forMeasures();
    /** With --linearity: per stage and parallelism, its cost in each round. */
    final Map<String, List<StageCost>> linearities = new LinkedHashMap<>();
    GeneratorSettings settings;
    private FlinkSessionClient flink;
    private SessionJobs jobs;

    /**
     * A stage's run, until every document is through, telling {@code progress} each count it reads; returns its job,
     * to be ended once its CPU is read.
     */
    private interface Stage {
        String run(LongConsumer progress) throws Exception;
    }

    @Override
    protected int run(GeneratorSettings run) throws Exception {
        settings = run;
        Options.require(sample >= 1, "--sample must be positive, was " + sample);
        Options.require(rounds >= 1, "--rounds must be positive, was " + rounds);
        ProcessCpu processes = processes();
        jobs = SessionJobs.open(session, pipeline.parallelism, "the calibration", CANCEL_TIMEOUT).orElse(null);
        if (jobs == null) {
            return 2;
        }
        flink = jobs.flink;
        ImportedForm form = new ImportedForm();
        List<ImportedEvent> documents = new BankGenerator(settings).documents().stream().map(form::of).toList();
        long n = documents.size();
        Map<String, List<StageCost>> stages = new LinkedHashMap<>();
        Map<String, List<Double>> kafka = new LinkedHashMap<>();
        Map<String, Calibration.TypeCosts> types;
        String engine;
        Path topologies = Files.createTempDirectory("calibration-topologies");
        try (Stores stores = new Stores(pipeline); MongoClient mongo = MongoClients.create(pipeline.mongodb.uri)) {
            // The version first: the engine knows its name once it has asked the cluster
            String version = stores.search().version();
            engine = stores.search().name() + " " + version;
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
                String tag = "r" + round + "-";
                stores.reset(repository());
                flink.awaitState(run(Step.GENERATE, generateArguments()), "FINISHED", Duration.ofMinutes(10));
                measured(kafka, "documents", stores.topicBytes(pipeline.documentsTopic()) / (double) n);
                measured(stages, "import", stage(processes, "import", n,
                        progress -> importJob(stores, pipeline, tag, n, progress),
                        job -> flink.stopWithSavepoint(job, CANCEL_TIMEOUT)));
                measured(kafka, "imported", stores.topicBytes(pipeline.importedTopic()) / (double) n);
                for (IndexProfile profile : IndexProfile.values()) {
                    PipelineOptions options = withProfile(profile, topologies);
                    measured(stages, "index." + profile.id(), stage(processes, "index, " + profile.id() + " profile",
                            n, progress -> indexJob(stores, options, tag + profile.id(), n, progress),
                            job -> flink.cancel(job, CANCEL_TIMEOUT)));
                    Commands commands = new Commands(flink, session.jar, MongoRepositories.sharing(mongo,
                            pipeline.mongodb.database), stores.search(), options.indices(), Options.arguments(options),
                            options.kafka.clientProperties());
                    measured(stages, "reindex." + profile.id(), stage(processes, "reindex, " + profile.id()
                            + " profile", n, progress -> {
                                ReindexMeasure.of(commands, ReindexMeasure.start(commands, repository(), REINDEX_RANGE),
                                        n, progress);
                                return null;
                            }, job -> { }));
                }
                if (linearity) {
                    linearity(processes, stores, topologies, tag, n);
                }
            }
            types = new TypeBytes(sample).costs(documents, mongo.getDatabase(pipeline.mongodb.database)
                    .getCollection(repository(), BsonDocument.class), stores.search());
            stores.reset(repository());
        } finally {
            jobs.close();
            try (Stream<Path> files = Files.walk(topologies)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        Map<String, Map<String, Double>> cpu = new LinkedHashMap<>();
        stages.forEach((stage, costs) -> cpu.put(stage, medianPerDocument(costs)));
        Map<String, Double> kafkaBytes = new LinkedHashMap<>();
        kafka.forEach((topic, bytes) -> kafkaBytes.put(topic, median(bytes)));
        Calibration calibration = new Calibration(machine(engine), types, cpu, kafkaBytes);
        write(calibration, n);
        return 0;
    }

    /**
     * The import (MongoDB on a core of its own) and the index job (the search engine on one) at each of
     * {@link #PARALLELISMS}, the other services and this runner on the other cores ({@link StoreIsolation}).
     */
    private void linearity(ProcessCpu processes, Stores stores, Path topologies, String tag, long n) throws Exception {
        PipelineOptions metadata = withProfile(IndexProfile.METADATA, topologies);
        for (int parallelism : PARALLELISMS) {
            String p = Integer.toString(parallelism);
            PipelineOptions importing = Options.parseWithOverrides(new PipelineOptions(),
                    Options.with(pipeline, "--parallelism", p));
            PipelineOptions indexing = Options.parseWithOverrides(new PipelineOptions(),
                    Options.with(metadata, "--parallelism", p));
            try (StoreIsolation isolation = StoreIsolation.ofService(LocalServices.ofThisCheckout(), MONGODB_SERVICE,
                    MONGODB_SERVICE)) {
                // A new collection: each import writes every document for the first time
                stores.reset(repository(), new String[0]);
                measured(linearities, "import, parallelism " + p, stage(processes, "import, parallelism " + p, n,
                        progress -> importJob(stores, importing, tag + "p" + p + "-", n, progress),
                        job -> flink.stopWithSavepoint(job, CANCEL_TIMEOUT)));
            }
            try (StoreIsolation isolation = StoreIsolation.ofService(LocalServices.ofThisCheckout(), searchService,
                    "--search-service " + searchService)) {
                measured(linearities, "index.metadata, parallelism " + p, stage(processes, "index, parallelism " + p,
                        n, progress -> indexJob(stores, indexing, tag + "linearity-p" + p, n, progress),
                        job -> flink.cancel(job, CANCEL_TIMEOUT)));
            }
        }
    }

    /** The services' processes, grouped as a calibration names them. */
    private ProcessCpu processes() {
        Map<String, Long> running = LocalServices.ofThisCheckout().running();
        Map<String, List<Long>> groups = new LinkedHashMap<>();
        groups.put(Calibration.FLINK, running.entrySet().stream().filter(e -> e.getKey().startsWith(FLINK_SERVICES))
                .map(Map.Entry::getValue).toList());
        groups.put(Calibration.MONGODB, Stream.ofNullable(running.get(MONGODB_SERVICE)).toList());
        groups.put(Calibration.SEARCH, Stream.ofNullable(running.get(searchService)).toList());
        groups.put(Calibration.KAFKA, KAFKA_SERVICES.stream().map(running::get).filter(pid -> pid != null).toList());
        groups.forEach((group, pids) -> Options.require(!pids.isEmpty(), "the calibration reads the CPU time of the "
                + "local services: no " + group + " process runs (bin/volumizer up" + (group.equals(Calibration.SEARCH)
                        ? " " + searchService : "") + "; the services running: " + running.keySet() + ")"));
        return new ProcessCpu(groups);
    }

    /**
     * Runs a stage once the machine is quiet, and returns the CPU seconds each group of processes spent on one of its
     * documents between {@link #WINDOW_FROM} and {@link #WINDOW_TO} of them, less their idle rate (measured just
     * before) over that time.
     */
    private StageCost stage(ProcessCpu processes, String name, long n, Stage stage, JobEnd end)
            throws Exception {
        quiet.settle();
        Map<String, Double> idle = processes.idleRates(IDLE);
        ProcessCpu.Window window = processes.window(n, WINDOW_FROM, WINDOW_TO);
        String job = stage.run(window::observe);
        if (job != null) {
            end.of(job);
        }
        Map<String, Double> perDocument = window.perDocument(idle);
        System.out.printf(Locale.ROOT, "%-28s %,9.0f docs/s;%s%n", name, window.rate(), describe(perDocument));
        return new StageCost(window.rate(), perDocument);
    }

    private static <T> void measured(Map<String, List<T>> rounds, String what, T value) {
        rounds.computeIfAbsent(what, k -> new ArrayList<>()).add(value);
    }

    /** Per group of processes, the median over the rounds of a document's CPU seconds. */
    private static Map<String, Double> medianPerDocument(List<StageCost> rounds) {
        Map<String, Double> medians = new LinkedHashMap<>();
        rounds.get(0).perDocument().keySet().forEach(group -> medians.put(group,
                median(rounds.stream().map(cost -> cost.perDocument().get(group)).toList())));
        return medians;
    }

    /** Per round, {@code value(b) / value(a)}. */
    static List<Double> ratios(List<StageCost> a, List<StageCost> b, ToDoubleFunction<StageCost> value) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            ratios.add(value.applyAsDouble(b.get(i)) / value.applyAsDouble(a.get(i)));
        }
        return ratios;
    }

    /** A stage's docs/s and, per group of processes, the CPU seconds a document cost, over its window. */
    record StageCost(double rate, Map<String, Double> perDocument) {
    }

    private interface JobEnd {
        void of(String job) throws Exception;
    }

    private static String describe(Map<String, Double> perDocument) {
        StringBuilder line = new StringBuilder();
        perDocument.forEach((group, seconds) -> line.append(String.format(Locale.ROOT, " %s %.1f µs", group,
                seconds * 1e6)));
        return line.toString();
    }

    private String importJob(Stores stores, PipelineOptions options, String tag, long n, LongConsumer progress)
            throws Exception {
        String job = run(Step.IMPORT, Options.with(options, "--group-id", "calibration-import-" + tag + runId));
        try (CommittedRecordCount deadLetters = stores.committedRecordCount(pipeline.deadletterTopic())) {
            Through imported = new Through("import", new Progress(n), () -> stores.mongoEstimatedCount(repository()),
                    deadLetters::count);
            // Polling runs its check after each reading: the window reads the CPU there
            polling.untilThrough(List.of(imported), () -> progress.accept(imported.progress().count()));
            progress.accept(imported.progress().count());
            requireNoDeadLetters("the import", imported);
        }
        return job;
    }

    private String indexJob(Stores stores, PipelineOptions options, String tag, long n, LongConsumer progress)
            throws Exception {
        stores.search().indices(options.indices()).delete(repository());
        String deadLetterTopic = pipeline.deadletterTopic() + ".calibration-" + tag;
        stores.deleteTopics(deadLetterTopic);
        String job = run(Step.INDEX, Options.with(options, "--index-group-id",
                "calibration-index-" + tag + "-" + runId, "--deadletter-topic", deadLetterTopic));
        try (CommittedRecordCount deadLetters = stores.committedRecordCount(deadLetterTopic)) {
            Through indexed = new Through("index", new Progress(n),
                    () -> Counts.orFail(() -> stores.searchableCount(options.indices(), repository())), deadLetters::count);
            polling.untilThrough(List.of(indexed), () -> progress.accept(indexed.progress().count()));
            progress.accept(indexed.progress().count());
            requireNoDeadLetters("the index job (" + tag + ")", indexed);
        } finally {
            stores.deleteTopics(deadLetterTopic);
        }
        return job;
    }

    private static void requireNoDeadLetters(String what, Through through) {
        if (through.deadLettered() > 0) {
            throw new IllegalStateException(what + " dead-lettered " + through.deadLettered()
                    + " documents: a document's cost would be measured on fewer than the run's");
        }
    }

    /**
     * The pipeline's options with the repository's index in {@code profile}: one shard, no replica (a document's cost
     * on one copy); the archive compressed and refreshed as {@code topologies/11b.yaml} lays it out.
     */
    private PipelineOptions withProfile(IndexProfile profile, Path folder) throws IOException {
        Path topology = folder.resolve(profile.id() + ".yaml");
        Files.writeString(topology, "repositories:\n  " + repository() + ":\n    profile: " + profile.id()
                + "\n    index: {shards: 1, replicas: 0"
                + (profile == IndexProfile.ARCHIVE ? ", refreshInterval: 10s, codec: best_compression" : "")
                + "}\nrouting:\n  - to: " + repository() + "\n");
        return Options.parseWithOverrides(new PipelineOptions(), Options.with(pipeline, "--topology",
                topology.toString()));
    }

    private Calibration.Machine machine(String engine) throws IOException {
        String model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown CPU");
        String memory = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                .findFirst().map(l -> String.format(Locale.ROOT, "%.0f GiB",
                        Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024)).orElse("unknown memory");
        return new Calibration.Machine(Runtime.getRuntime().availableProcessors(), model + ", " + memory
                + ", every service on this machine", engine, Instant.now().toString());
    }

    private String run(Step step, List<String> args) throws Exception {
        return jobs.run(step, args);
    }

    /** The checkout: its node-type catalogue and topologies. */
    private static Path root() {
        return Path.of(System.getProperty("volumizer.root", "."));
    }

    private String repository() {
        return settings.repository();
    }

    private void write(Calibration calibration, long documents) throws IOException {
        Report.writeJson(results.folder, "calibration", calibration);
        String table = CalibrationTable.markdown(this, calibration, documents);
        Files.writeString(results.folder.resolve("calibration.md"), table);
        if (!linearities.isEmpty()) {
            Report.writeJson(results.folder, "calibration-linearity", linearities);
        }
        System.out.println(table);
        PlanComparison.write(calibration, root(), results.folder);
    }
}
