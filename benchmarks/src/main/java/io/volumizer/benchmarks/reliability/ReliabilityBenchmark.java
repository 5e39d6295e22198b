package io.volumizer.benchmarks.reliability;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;

import io.volumizer.domain.topology.LiveTopology;
import io.volumizer.stores.blob.Uploads;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.render.FileText;
import io.volumizer.generators.render.HostileFiles;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.cli.CsvExport;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.jobs.JobsCommand;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.Stores;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.Failures;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The pipeline through one fault at a time, on the local services, over a generated run of at least 250,000
 * documents: TaskManager, JobManager and Kafka broker killed (kill -9) and restarted, the schema registry, MongoDB
 * and the search engine (Elasticsearch or OpenSearch) down for an outage, the search engine saturated (429s from a
 * write queue of a few entries), the
 * separate import and index jobs as well as import-and-index (into a live repository too, its files' text read off
 * the import path), and bad input at scale. Each row is read from the
 * stores and topics through the official clients, document by document: nothing lost, nothing extra, no good
 * document dead-lettered (and exactly the injected bad records dead-lettered, each with its reason; in the live
 * repository, every readable file's text indexed and stored). Writes
 * {@code reliability.json} and {@code reliability.md}.
 */
@Command(name = "reliability-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs the pipeline through one fault at a time and audits the stores.",
        footer = {"%nExample:", "  bin/volumizer bench reliability --search opensearch"})
public final class ReliabilityBenchmark extends PipelineRunCommand {

    /** Which jobs carry the documents, and the suffix of their scenarios' ids. */
    enum Topology {
        IMPORT_AND_INDEX(""),
        SEPARATE_JOBS("-separate-jobs"),
        /** The CSV job reads the run's export into the documents topic while import-and-index runs, both hit. */
        CSV_IMPORT("-csv-import"),
        /** Import-and-index into one live repository: the branch that reads its files' text is hit as well. */
        LIVE_FILE_TEXT("-live-file-text"),
        /**
         * A live repository as the chart's values-live.yaml deploys it: import, an index job of the metadata alone
         * ({@code --file-text none}) and one of the files' text alone ({@code --file-text only}), each its own job.
         */
        LIVE_TEXT_JOB("-live-text-job");

        final String idSuffix;

        Topology(String idSuffix) {
            this.idSuffix = idSuffix;
        }

        /** Whether the run's repository is live: its files' text read, every readable one to be found at the end. */
        boolean live() {
            return this == LIVE_FILE_TEXT || this == LIVE_TEXT_JOB;
        }
    }

    /**
     * The CSV job's limit in its scenarios: slow enough that the faults, which wait for a share of the documents in
     * MongoDB, find it mid-file (a TaskManager killed under a split half read, a broker gone under a transaction).
     */
    static final double CSV_DOCS_PER_SECOND = 1500;

    /**
     * A fault and the jobs it is run against: every fault against import-and-index, those that act on a writer
     * against the separate import and index jobs too, those that act on a source or a job graph against the CSV
     * job reading beside import-and-index, and kills, outages and a backlog against import-and-index into a live
     * repository, whose files' text is read and written after the documents.
     */
    record Scenario(Fault fault, Topology topology) {

        static final List<Scenario> ALL = java.util.stream.Stream.of(
                on(Topology.IMPORT_AND_INDEX, java.util.Arrays.stream(Fault.values())
                        .filter(fault -> fault != Fault.CLEAN && fault != Fault.FUZZ).toArray(Fault[]::new)),
                on(Topology.SEPARATE_JOBS, Fault.TASKMANAGER_KILLED, Fault.ELASTICSEARCH_DOWN, Fault.MONGODB_DOWN),
                on(Topology.CSV_IMPORT, Fault.TASKMANAGER_KILLED, Fault.JOBMANAGER_KILLED, Fault.KAFKA_KILLED,
                        Fault.TWO_OUTAGES, Fault.BACKLOG),
                on(Topology.LIVE_FILE_TEXT, Fault.TASKMANAGER_KILLED, Fault.ELASTICSEARCH_DOWN, Fault.TWO_OUTAGES,
                        Fault.BACKLOG),
                on(Topology.LIVE_TEXT_JOB, Fault.TASKMANAGER_KILLED, Fault.JOBMANAGER_KILLED,
                        Fault.ELASTICSEARCH_DOWN, Fault.TWO_OUTAGES, Fault.BACKLOG))
                .flatMap(List::stream).toList();
        /** {@code bench fuzz}: the clean baseline, then the same run fuzzed. */
        static final List<Scenario> FUZZING = List.of(new Scenario(Fault.CLEAN, Topology.IMPORT_AND_INDEX),
                new Scenario(Fault.FUZZ, Topology.IMPORT_AND_INDEX));
        private static final List<Scenario> KNOWN = java.util.stream.Stream.concat(ALL.stream(), FUZZING.stream()).toList();

        private static List<Scenario> on(Topology topology, Fault... faults) {
            return java.util.Arrays.stream(faults).map(fault -> new Scenario(fault, topology)).toList();
        }

        /** {@code mongodb-down}, {@code mongodb-down-separate-jobs}, {@code kafka-killed-csv-import}. */
        String id() {
            return fault.name().toLowerCase(Locale.ROOT).replace('_', '-') + topology.idSuffix;
        }

        /** Whether the run's repository is live: its fault needs it ({@link Fault#readsFiles}), or its topology is. */
        boolean readsFiles() {
            return fault.readsFiles() || topology.live();
        }

        /** Scenarios on the command line, by their ids. */
        static final class ById implements CommandLine.ITypeConverter<Scenario>, Iterable<String> {
            @Override
            public Scenario convert(String id) {
                return KNOWN.stream().filter(scenario -> scenario.id().equals(id)).findFirst().orElseThrow(() ->
                        new CommandLine.TypeConversionException("unknown scenario '" + id + "'; scenarios: "
                                + String.join(", ", this)));
            }

            @Override
            public java.util.Iterator<String> iterator() {
                return KNOWN.stream().map(Scenario::id).iterator();
            }
        }
    }

    /** The share of the statements the bad-input scenario replaces with bad records. */
    static final double BAD_SHARE = 0.01;
    /** The share of the statements the fuzzing run replaces. */
    static final double FUZZ_SHARE = 0.02;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(names = "--scenarios", split = ",", converter = Scenario.ById.class, completionCandidates = Scenario.ById.class,
            description = "Scenarios to run (default: all of them): ${COMPLETION-CANDIDATES}.")
    List<Scenario> scenarios;

    @Option(names = "--outage", defaultValue = "PT60S", description = "How long a service stays down or saturated (default: ${DEFAULT-VALUE}).")
    Duration outage;

    @Option(names = "--fault-at", defaultValue = "0.25", description = "Share of the documents imported when a fault starts (default: ${DEFAULT-VALUE}).")
    double faultAt;

    @Option(names = "--timeout", defaultValue = "PT20M", description = "Longest a scenario may take to bring every document through (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--report", defaultValue = "reliability", description = "The results files' name: <report>.json "
            + "and <report>.md in the results folder (default: ${DEFAULT-VALUE}).")
    String report;

    private final String runId = Long.toString(System.currentTimeMillis(), 36);
    private final LocalServices services = LocalServices.ofThisCheckout();
    private FlinkSessionClient flink;
    private String jarId;
    /** The pipeline's search engine, as its cluster says: the local service its faults act on, and its version. */
    private String searchService;
    private String searchVersion;

    @Override
    protected int run(GeneratorSettings settings) throws Exception {
        flink = session.client();
        jarId = flink.uploadJar(session.jar);
        try (SearchEngine search = SearchEngines.open(pipeline.search)) {
            searchVersion = search.version();
            searchService = search.name();
        }
        List<DocumentEvent> generated = new BankGenerator(settings).documents();
        List<Row> rows = new ArrayList<>();
        for (Scenario scenario : scenarios == null ? Scenario.ALL : scenarios) {
            System.out.printf(Locale.ROOT, "%s: %s, %s%n", scenario.id(), scenario.fault.description(outage),
                    scenario.topology);
            Row row;
            try {
                row = new ScenarioRun(scenario, generated, settings).run();
            } catch (Exception e) {
                row = Row.failed(scenario, outage, generated.size(), e);
            }
            rows.add(row);
            System.out.println("  " + row.summary());
            write(rows, settings, generated.size());
        }
        return rows.stream().allMatch(Row::passed) ? 0 : 1;
    }

    /** A blob store (a folder) of {@code run}'s: the jobs' TaskManager runs on this machine. */
    private static Path blobStore(String run) {
        try {
            return Files.createTempDirectory(run + "-blobs");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One scenario, on topics, a database and an index of its own. */
    private final class ScenarioRun {

        private final Scenario scenario;
        private final List<DocumentEvent> generated;
        private final GeneratorSettings settings;
        private final PipelineOptions options;
        private final List<String> jobs = new ArrayList<>();
        /** The scenario's jobs by name: a step's id, or the files' text's consumer group for its index job of it. */
        private final Map<String, Submission> submitted = new LinkedHashMap<>();
        /** Each submission's job now: the one submitted, recovered or resumed last. */
        private final Map<String, String> running = new LinkedHashMap<>();
        private final Throughput imported = new Throughput();
        private final Throughput indexed = new Throughput();
        private final long started = System.currentTimeMillis();
        private long submittedAt;
        /** Each time the jobs were resumed at another parallelism: it, when they were stopped, when running again. */
        private final List<long[]> rescales = new ArrayList<>();
        /** The checkpoints of the jobs each parallelism ran: their median state size (bytes) and duration (ms). */
        private final List<long[]> checkpoints = new ArrayList<>();

        ScenarioRun(Scenario scenario, List<DocumentEvent> generated, GeneratorSettings settings) {
            this.scenario = scenario;
            this.generated = generated;
            this.settings = settings;
            String name = "rel-" + runId + "-" + Scenario.KNOWN.indexOf(scenario);
            List<String> overrides = Options.with(pipeline, "--topics-of", name, "--mongodb-database",
                    name.replace('-', '_'), "--index-prefix", name + "-");
            if (scenario.readsFiles()) {
                overrides.addAll(List.of("--topology", LiveTopology.file(name, settings.repository()).toString(),
                        "--blob-store", blobStore(name).toString()));
            }
            if (scenario.fault == Fault.BACKLOG) {
                // One more partition than readers: one reader has two, and reads each at half the other's pace.
                overrides.addAll(List.of("--partitions", Integer.toString(pipeline.parallelism > 0 ? pipeline.parallelism + 1 : 3)));
            }
            if (scenario.fault == Fault.RESCALED) {
                overrides.addAll(List.of("--partitions", Integer.toString(Fault.RESCALED_UP), "--parallelism",
                        Integer.toString(Fault.RESCALED_FROM)));
            }
            this.options = Options.parseWithOverrides(new PipelineOptions(), overrides);
        }

        Row run() throws Exception {
            try (Stores stores = new Stores(options); MongoClient mongo = MongoClients.create(options.mongodb.uri);
                    SearchEngine search = SearchEngines.open(options.search)) {
                MongoCollection<Document> collection = mongo.getDatabase(options.mongodb.database)
                        .getCollection(settings.repository());
                try {
                    scenario.fault.prepare(faults());
                    BadInput.Injected bad = fill();
                    Map<String, Long> expected = generated.stream().filter(d -> !bad.replacedIds().contains(d.getId()))
                            .collect(Collectors.toMap(DocumentEvent::getId, DocumentEvent::getVersion));
                    // The texts come after their documents: the live topology's run is through once they are in too.
                    long texts = scenario.topology.live() ? readableFiles(bad) : 0;
                    submittedAt = System.currentTimeMillis();
                    submit(switch (scenario.fault) {
                        case BAD_INPUT, CLEAN, FUZZ -> List.of("--parent-wait-margin", "PT5S");
                        // A margin of one second: it is the import's progress, not the margin, that waits for parents.
                        case BACKLOG -> List.of("--parent-wait-margin", "PT1S");
                        default -> List.of();
                    });
                    ScheduledExecutorService monitor = Executors.newSingleThreadScheduledExecutor();
                    monitor.scheduleAtFixedRate(() -> poll(collection, stores), 0, 500, TimeUnit.MILLISECONDS);
                    List<long[]> windows;
                    try {
                        windows = scenario.fault.inject(faults(), new Trigger(collection::estimatedDocumentCount,
                                expected.size(), faultAt));
                        awaitThrough(collection, stores, expected.size(), bad.positions().size(), texts);
                        poll(collection, stores); // the counts at the end, which the monitor may not have sampled yet
                    } finally {
                        monitor.shutdownNow();
                    }
                    Thread.sleep(3_000); // a last checkpoint: dead letters are committed with it
                    return audit(stores, collection, search, expected, bad, windows, texts);
                } finally {
                    for (String job : jobs) {
                        cancel(job);
                    }
                    scenario.fault.restore(faults());
                    services.start(); // whatever a fault left down
                    stores.reset(settings.repository(), options.documentsTopic(), options.importedTopic(), options.deadletterTopic(),
                            options.controlTopic());
                    mongo.getDatabase(options.mongodb.database).drop();
                    search.indices(options.indices()).deleteAll();
                }
            }
        }

        /** Cancels a job still running; one the cluster no longer knows (lost with its JobManager) is left. */
        private void cancel(String job) throws InterruptedException {
            try {
                if (!FlinkSessionClient.isTerminal(flink.state(job))) {
                    flink.cancel(job, Duration.ofMinutes(2));
                }
            } catch (IOException unknown) {
                System.out.println("  job " + job + ": " + unknown.getMessage());
            }
        }

        private Faults faults() {
            return new Faults(services, outage, options, this::recover, this::pause, this::rescale, searchService);
        }

        /** The documents topic: generated by the generate job, or produced here with bad records among them. */
        private BadInput.Injected fill() throws Exception {
            if (scenario.topology == Topology.CSV_IMPORT) {
                return BadInput.Injected.NONE; // the CSV job fills the topic while the faults hit
            }
            if (!scenario.fault.isInput()) {
                String generate = flink.run(jarId, Step.GENERATE, generateArguments(options), null);
                jobs.add(generate);
                flink.awaitState(generate, "FINISHED", Duration.ofMinutes(15));
                return BadInput.Injected.NONE;
            }
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.kafka.bootstrapServers))) {
                admin.createTopics(List.of(new NewTopic(options.documentsTopic(), options.partitions,
                        options.topicSettings.replicationFactor).configs(options.topicSettings.configs()))).all().get();
            }
            AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url),
                    AvroCodec.valueSubject(options.documentsTopic()), DocumentEvent.class);
            return BadInput.produce(options.kafka.bootstrapServers, options.documentsTopic(), codec, generated,
                    scenario.fault.badShare(), settings.seed(), BadInput.jsonSchemaId(options.registry.url,
                            options.documentsTopic()), scenario.fault.badKinds(), this::uploadPdfBomb);
        }

        /** The PDF bomb stored in the repository's blob store as the API stores an upload: its reference. */
        private BlobRef uploadPdfBomb() {
            try (RepositoryBlobStores.Opened stores = options.repositoryBlobStores().open()) {
                return Uploads.store(stores.of(settings.repository()).orElseThrow(), HostileFiles.inflatingPdf(
                        BadInput.Kind.BOMB_MIB), "statement.pdf");
            }
        }

        private void submit(List<String> importOptions) throws Exception {
            String group = "rel-" + runId + "-" + scenario.id();
            List<String> importArgs = Options.with(options, "--group-id", group);
            importArgs.addAll(importOptions);
            switch (scenario.topology) {
                case IMPORT_AND_INDEX, LIVE_FILE_TEXT -> add(Step.IMPORT_AND_INDEX, importArgs);
                case SEPARATE_JOBS -> {
                    add(Step.IMPORT, importArgs);
                    add(Step.INDEX, Options.with(options, "--index-group-id", group + "-index"));
                }
                case LIVE_TEXT_JOB -> {
                    add(Step.IMPORT, importArgs);
                    add(Step.INDEX, Options.with(options, "--index-group-id", group + "-index", "--file-text",
                            IndexSettings.FileText.none.name()));
                    String fileText = ConsumerGroups.FILE_TEXT;
                    submitted.put(fileText, new Submission(Step.INDEX, Options.with(options, "--index-group-id",
                            group + "-" + fileText, "--file-text", IndexSettings.FileText.only.name())));
                }
                case CSV_IMPORT -> {
                    add(Step.IMPORT_AND_INDEX, importArgs);
                    add(Step.IMPORT_CSV, Options.with(options, "--repository", settings.repository(), "--path",
                            exportCsv().toString()));
                    new ThrottleSettings(options.kafka.clientProperties(), options.registry.url, options.controlTopic(),
                            options.topicSettings).change(Step.IMPORT_CSV.id(),
                                    new ThrottleSettings.Change.Limit(CSV_DOCS_PER_SECOND), "reliability-benchmark");
                }
            }
            for (String name : submitted.keySet()) {
                start(name, null);
            }
        }

        /** A job of the step to submit, named after it. */
        private void add(Step step, List<String> args) {
            submitted.put(step.id(), new Submission(step, args));
        }

        /** The run as the generator's CSV export writes it, in a file of the scenario's. */
        private Path exportCsv() throws IOException {
            Path file = Files.createTempFile("rel-" + runId + "-" + scenario.id(), ".csv");
            CsvExport.toFile(new BankGenerator(settings), file);
            return file;
        }

        /** Runs a submission's step with the options it was submitted with, from a savepoint or none. */
        private void start(String name, String savepoint) throws Exception {
            Submission submission = submitted.get(name);
            String job = flink.run(jarId, submission.step(), submission.args(), savepoint);
            jobs.add(job);
            running.put(name, job);
            flink.awaitState(job, "RUNNING", Duration.ofMinutes(2));
        }

        /** Each job stopped with a savepoint for the outage, then resumed from it with the options it ran with. */
        private void pause() throws Exception {
            Map<String, String> savepoints = stopWithSavepoints();
            Thread.sleep(outage.toMillis());
            for (Map.Entry<String, String> savepoint : savepoints.entrySet()) {
                start(savepoint.getKey(), savepoint.getValue());
            }
        }

        /** Each job stopped with a savepoint, then resumed from it at {@code parallelism}, as job resume does. */
        private void rescale(int parallelism) throws Exception {
            checkpoints.add(checkpointMedians());
            long stopping = System.currentTimeMillis();
            for (Map.Entry<String, String> savepoint : stopWithSavepoints().entrySet()) {
                Submission ran = submitted.get(savepoint.getKey());
                List<String> args = new ArrayList<>(ran.args());
                args.addAll(List.of("--parallelism", Integer.toString(parallelism)));
                submitted.put(savepoint.getKey(), new Submission(ran.step(), args));
                start(savepoint.getKey(), savepoint.getValue());
            }
            rescales.add(new long[] {parallelism, stopping - started, System.currentTimeMillis() - started});
            System.out.printf(Locale.ROOT, "  resumed at parallelism %d in %.1f s%n", parallelism,
                    (System.currentTimeMillis() - stopping) / 1000.0);
        }

        /** The median state size and duration of the running jobs' checkpoints, summed over the jobs. */
        private long[] checkpointMedians() throws IOException {
            long[] medians = new long[2];
            for (String job : running.values()) {
                com.fasterxml.jackson.databind.JsonNode summary = flink.checkpoints(job).path("summary");
                medians[0] += summary.path("state_size").path("p50").asLong();
                medians[1] += summary.path("end_to_end_duration").path("p50").asLong();
            }
            return medians;
        }

        /** The running jobs stopped with a savepoint each (a bounded job may be done): where each savepoint is. */
        private Map<String, String> stopWithSavepoints() throws Exception {
            Map<String, String> savepoints = new LinkedHashMap<>();
            for (Map.Entry<String, String> job : running.entrySet()) {
                if (!FlinkSessionClient.isTerminal(flink.state(job.getValue()))) {
                    savepoints.put(job.getKey(), flink.stopWithSavepoint(job.getValue(), Duration.ofMinutes(5)));
                }
            }
            return savepoints;
        }

        /**
         * The runs at each parallelism of a rescaled scenario: how long the stop and the resume took, and the
         * documents a second into MongoDB from the resume until the next stop (or every document imported).
         */
        private List<Phase> phases(long documents) throws IOException {
            if (rescales.isEmpty()) {
                return null;
            }
            checkpoints.add(checkpointMedians());
            List<Phase> phases = new ArrayList<>();
            long end = imported.reached(documents).orElse(System.currentTimeMillis() - started);
            long polled = imported.firstMillis().orElse(submittedAt - started); // the first rate from the first poll
            long[] first = {Fault.RESCALED_FROM, polled, polled};
            List<long[]> all = new ArrayList<>(List.of(first));
            all.addAll(rescales);
            for (int i = 0; i < all.size(); i++) {
                long[] phase = all.get(i);
                long until = i + 1 < all.size() ? all.get(i + 1)[1] : end;
                phases.add(new Phase((int) phase[0], i == 0 ? null : (phase[2] - phase[1]) / 1000.0,
                        imported.rate(phase[2], until).orElse(Double.NaN), checkpoints.get(i)[0], checkpoints.get(i)[1]));
            }
            return phases;
        }

        /** After the JobManager was lost with the jobs: each job resumed from its newest checkpoint, as a user would. */
        private void recover() {
            for (Map.Entry<String, Submission> submission : submitted.entrySet()) {
                List<String> args = new ArrayList<>(List.of("--flink-rest", session.flink.rest, "--jar",
                        session.jar.toString(), "recover", "--json", submission.getValue().step().id()));
                args.addAll(submission.getValue().args());
                StringWriter printed = new StringWriter();
                int exit = JobsCommand.commandLine().setOut(new PrintWriter(printed, true)).execute(args.toArray(String[]::new));
                String output = printed.toString();
                if (exit != 0) {
                    throw new IllegalStateException("job recover failed (exit " + exit + "): " + output);
                }
                String jobId = output.lines().filter(line -> line.startsWith("{")).reduce((a, b) -> b)
                        .map(line -> readJson(line).path("jobId").asText())
                        .orElseThrow(() -> new IllegalStateException("job recover printed no job: " + output));
                jobs.add(jobId);
                running.put(submission.getKey(), jobId);
            }
        }

        private void poll(MongoCollection<Document> collection, Stores stores) {
            long now = System.currentTimeMillis() - started;
            try {
                imported.record(now, collection.estimatedDocumentCount());
            } catch (RuntimeException down) {
                // the store is down: no sample
            }
            try {
                indexed.record(now, stores.searchableCount(options.indices(), settings.repository()));
            } catch (IOException | RuntimeException down) {
                // the store is down: no sample
            }
        }

        private void awaitThrough(MongoCollection<Document> collection, Stores stores, long documents, long deadLetters,
                long texts) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (count(collection::estimatedDocumentCount) >= documents && count(() -> elasticsearchCount(stores)) >= documents
                        && (deadLetters == 0 || stores.committedRecords(options.deadletterTopic()) >= deadLetters)
                        // counted after the refresh of elasticsearchCount
                        && (texts == 0 || count(() -> textsIndexed(stores)) >= texts)) {
                    return;
                }
                Thread.sleep(1_000);
            }
        }

        private long elasticsearchCount(Stores stores) {
            try {
                return stores.elasticsearchCount(settings.repository());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The repository's documents whose file's text is indexed, as of the last refresh. */
        private long textsIndexed(Stores stores) {
            try {
                return stores.searchableFileTexts(options.indices(), settings.repository());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The good documents with a file whose text the index reads: each must end with its text in both stores. */
        private long readableFiles(BadInput.Injected bad) {
            return generated.stream().filter(d -> !bad.replacedIds().contains(d.getId()))
                    .filter(d -> FileText.readable(d.getBlob())).count();
        }

        private Row audit(Stores stores, MongoCollection<Document> collection, SearchEngine search,
                Map<String, Long> expected, BadInput.Injected bad, List<long[]> windows, long texts) throws Exception {
            if (scenario.fault.isInput()) {
                long restarts = 0;
                for (String job : running.values()) {
                    restarts += flink.restarts(job);
                }
                if (restarts > 0) {
                    throw new IllegalStateException("the jobs restarted " + restarts + " times over bad records: a record "
                            + "must land or be dead-lettered, never stop a job");
                }
            }
            StoreAudit.Findings mongo = StoreAudit.mongo(collection, expected);
            StoreAudit.Findings indexedDocuments = StoreAudit.index(search, options.indices(), settings.repository(),
                    expected);
            Map<String, Long> reasons = new TreeMap<>();
            Map<String, Map<String, Long>> reasonsByKind = new TreeMap<>();
            long expectedLetters = 0;
            long unexpectedLetters = 0;
            for (DeadLetter letter : deadLetters(stores)) {
                BadInput.Kind kind = letter.getPartition() == null || letter.getOffset() == null ? null
                        : bad.positions().get(BadInput.position(letter.getPartition(), letter.getOffset()));
                if (kind != null) {
                    expectedLetters++;
                } else {
                    unexpectedLetters++;
                }
                reasons.merge(letter.getReasonClass().name(), 1L, Long::sum);
                BadInput.Kind landing = kind != null || letter.getPartition() == null || letter.getOffset() == null ? null
                        : bad.hostilePositions().get(BadInput.position(letter.getPartition(), letter.getOffset()));
                String of = kind != null ? kind.name() : landing != null ? landing.name() : "a good document";
                reasonsByKind.computeIfAbsent(of, k -> new TreeMap<>()).merge(letter.getReasonClass().name(), 1L, Long::sum);
            }
            Map<String, Long> kinds = new TreeMap<>();
            bad.kinds().forEach((kind, count) -> kinds.put(kind.name(), count));
            // Until the last good document is in both stores: the dead letters of orphans come later, by design.
            OptionalLong intoMongo = imported.reached(expected.size());
            OptionalLong intoIndex = indexed.reached(expected.size());
            Double docsPerSecond = intoMongo.isEmpty() || intoIndex.isEmpty() ? null : expected.size() * 1000.0
                    / (Math.max(intoMongo.getAsLong(), intoIndex.getAsLong()) - (submittedAt - started));
            ImportedTopic importedTopic = scenario.topology == Topology.SEPARATE_JOBS
                    || scenario.topology == Topology.LIVE_TEXT_JOB ? importedTopic(stores) : null;
            // The index was refreshed by its audit above.
            FileTexts fileTexts = scenario.topology.live() ? new FileTexts(texts, textsIndexed(stores),
                    stores.storedFileTexts(settings.repository())) : null;
            return new Row(scenario.id(), scenario.fault.description(outage), scenario.topology.name(), expected.size(),
                    bad.positions().size(), mongo, indexedDocuments, expectedLetters, unexpectedLetters, reasons,
                    importedTopic, faultSeconds(windows), recoverySeconds(windows, expected.size()),
                    (System.currentTimeMillis() - started) / 1000, docsPerSecond, kinds, reasonsByKind,
                    scenario.readsFiles() ? fileTextFailed() : null, fileTexts, phases(expected.size()), null);
        }

        /** The files whose text the jobs gave up (unreadable, or past a budget): no job restarted in such a run. */
        private long fileTextFailed() throws Exception {
            long failed = 0;
            for (String job : running.values()) {
                failed += flink.metricSum(job, "", MetricNames.FILE_TEXT_FAILED);
            }
            return failed;
        }

        /** How long the faults lasted, from the first harm to the service being back (and the jobs recovered). */
        private Double faultSeconds(List<long[]> windows) {
            return windows.isEmpty() ? null : windows.stream().mapToLong(w -> w[1] - w[0]).sum() / 1000.0;
        }

        /** The slowest recovery of any fault window, over both stores' throughput; null when there was no fault. */
        private Double recoverySeconds(List<long[]> windows, long total) {
            double slowest = -1;
            for (long[] window : windows) {
                long start = window[0] - started;
                long end = window[1] - started;
                for (Throughput stage : List.of(imported, indexed)) {
                    double before = stage.rateBefore(start);
                    if (before <= 0) {
                        continue; // the stage had not started, or was done, when the fault began
                    }
                    OptionalDouble recovery = stage.recoveryMillis(end, before, total);
                    slowest = Math.max(slowest, recovery.isPresent() ? recovery.getAsDouble() / 1000 : Double.MAX_VALUE);
                }
            }
            return slowest < 0 ? null : slowest;
        }

        /** The imported topic (separate jobs), written exactly once: each document once, however often replayed. */
        private ImportedTopic importedTopic(Stores stores) {
            AvroCodec<ImportedEvent> codec = AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url),
                    AvroCodec.valueSubject(options.importedTopic()), ImportedEvent.class);
            Set<String> ids = new HashSet<>();
            long[] records = {0};
            stores.readCommitted(options.importedTopic(), bytes -> {
                records[0]++;
                ids.add(codec.decode(bytes).getDocument().getId());
            });
            return new ImportedTopic(records[0], ids.size());
        }

        private List<DeadLetter> deadLetters(Stores stores) {
            AvroCodec<DeadLetter> codec = AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url),
                    AvroCodec.valueSubject(options.deadletterTopic()), DeadLetter.class);
            List<DeadLetter> letters = new ArrayList<>();
            stores.readCommitted(options.deadletterTopic(), bytes -> letters.add(codec.decode(bytes)));
            return letters;
        }
    }

    private List<String> generateArguments(PipelineOptions options) {
        List<String> args = Options.with(options);
        args.addAll(Options.arguments(run));
        return args;
    }

    private static long count(LongSupplier count) {
        try {
            return count.getAsLong();
        } catch (RuntimeException down) {
            return -1;
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode readJson(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A job of a scenario's: the step it runs, and the options it was submitted with (and is resumed with). */
    private record Submission(Step step, List<String> args) {
    }

    /**
     * A rescaled scenario's run at one parallelism: the seconds from the stop with a savepoint until the jobs ran again
     * (none for the first), the documents a second into MongoDB while it lasted, and its checkpoints' median state
     * size and duration.
     */
    record Phase(int parallelism, Double resumeSeconds, double docsPerSecond, long checkpointBytes, long checkpointMillis) {
    }

    /** The imported topic: its committed records, and how many documents they are about. */
    record ImportedTopic(long records, long documents) {
    }

    /** A live repository's files' text: the good documents with a readable file, and the texts each store holds. */
    record FileTexts(long expected, long indexed, long stored) {

        boolean complete() {
            return indexed == expected && stored == expected;
        }

        String describe() {
            return String.format(Locale.ROOT, "files' text: %,d of %,d indexed, %,d stored", indexed, expected, stored);
        }
    }

    /**
     * One scenario's audit; {@code docsPerSecond}: documents into both stores per second, from the jobs' submission
     * until every good one is in both (as polled, twice a second); {@code injectedKinds}, {@code reasonsByKind}: the bad and hostile records injected
     * by kind, and the dead letters of each kind (and of good documents) by reason class; {@code fileTexts}: on the
     * live topology only.
     */
    record Row(String scenario, String fault, String jobs, long documents, long badRecords, StoreAudit.Findings mongodb,
            StoreAudit.Findings elasticsearch, long expectedDeadLetters, long unexpectedDeadLetters,
            Map<String, Long> deadLetterReasons, ImportedTopic importedTopic, Double faultSeconds, Double recoverySeconds,
            long seconds, Double docsPerSecond, Map<String, Long> injectedKinds, Map<String, Map<String, Long>> reasonsByKind,
            Long fileTextFailed, FileTexts fileTexts, List<Phase> phases, String error) {

        /** A scenario that could not run to its audit. */
        static Row failed(Scenario scenario, Duration outage, long documents, Exception error) {
            StoreAudit.Findings none = new StoreAudit.Findings(0, documents, 0, 0);
            return new Row(scenario.id(), scenario.fault.description(outage), scenario.topology.name(), documents, 0, none,
                    none, 0, 0, Map.of(), null, null, null, 0, null, Map.of(), Map.of(), null, null, null, error.toString());
        }

        /**
         * Nothing lost, nothing extra, no good document dead-lettered, exactly the bad records dead-lettered; on the
         * live topology, every readable file's text in both stores.
         */
        boolean passed() {
            return error == null && mongodb.exact() && elasticsearch.exact() && unexpectedDeadLetters == 0
                    && expectedDeadLetters == badRecords && (importedTopic == null
                            || importedTopic.records() == documents && importedTopic.documents() == documents)
                    // every PDF bomb's text given up, no other file's
                    && (fileTextFailed == null
                            || fileTextFailed.longValue() == injectedKinds.getOrDefault(BadInput.Kind.PDF_BOMB.name(), 0L))
                    && (fileTexts == null || fileTexts.complete());
        }

        String summary() {
            if (error != null) {
                return "FAILED to run: " + error;
            }
            return String.format(Locale.ROOT, "MongoDB %,d (missing %d, extra %d), search engine %,d (missing %d, extra %d),"
                    + " dead letters %d expected / %d unexpected%s, recovery %s: %s", mongodb.found(), mongodb.missing(),
                    mongodb.extra(), elasticsearch.found(), elasticsearch.missing(), elasticsearch.extra(),
                    expectedDeadLetters, unexpectedDeadLetters, fileTexts == null ? "" : ", " + fileTexts.describe(),
                    recovery(), passed() ? "OK" : "FAILED");
        }

        String recovery() {
            return recoverySeconds == null ? "—" : recoverySeconds == Double.MAX_VALUE ? "not within the run"
                    : String.format(Locale.ROOT, "%.0f s", recoverySeconds);
        }
    }

    private void write(List<Row> rows, GeneratorSettings settings, long documents) throws IOException {
        Files.createDirectories(results.folder);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("date", LocalDate.now().toString());
        json.put("machine", Runtime.getRuntime().availableProcessors() + " cores, every service on this machine");
        json.put("searchEngine", searchService + " " + searchVersion);
        json.put("documents", documents);
        json.put("customers", settings.customers());
        json.put("outageSeconds", outage.toSeconds());
        json.put("faultAt", faultAt);
        json.put("rows", rows);
        JSON.writeValue(results.folder.resolve(report + ".json").toFile(), json);
        StringBuilder md = new StringBuilder("# Reliability under faults\n\n")
                .append(String.format(Locale.ROOT, "Measured %s on %s, the search engine %s: %,d generated documents per scenario (%d customers),"
                        + " each fault starting once %.0f%% of them are in MongoDB, outages of %d s. Every figure is read from"
                        + " the stores and topics through the official clients, document by document (never from job"
                        + " metrics): *missing* is a generated document not stored, *extra* one stored that nobody generated"
                        + " (or twice), *other version* one at a version it was not generated at. *Fault lasted* runs from the"
                        + " first harm until the service is back (a killed process restarted and healthy; for the JobManager,"
                        + " also the job recovered with bin/volumizer job recover), summed over the kills. *Recovery* runs from the end"
                        + " of the fault until the throughput (documents per second into MongoDB and into the search engine, polled"
                        + " twice a second) is back to half its rate over the 5 s before the fault, or every document is"
                        + " through; for three kills, the slowest. Target of every row: nothing missing, nothing extra, no"
                        + " good document dead-lettered, and for bad input exactly the injected records dead-lettered; into"
                        + " a live repository, every readable file's text (a statement's PDF, a letter's DOCX) indexed"
                        + " (fileTextIndexed) and stored in MongoDB, as *files' text* counts them.%n%n",
                        json.get("date"), json.get("machine"), json.get("searchEngine"), documents, settings.customers(),
                        faultAt * 100, outage.toSeconds()))
                .append("| scenario | jobs | documents | MongoDB (missing / extra / other version) | search engine (missing / extra / other version) | dead letters expected / unexpected | fault lasted | recovery | docs/s | met |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %,d%s | %,d (%d / %d / %d) | %,d (%d / %d / %d) | %d / %d%s | %s | %s | %s | %s |%n",
                    row.fault(), jobs(row), row.documents(),
                    row.badRecords() > 0 ? " + " + row.badRecords() + " bad" : "", row.mongodb().found(),
                    row.mongodb().missing(), row.mongodb().extra(), row.mongodb().otherVersion(), row.elasticsearch().found(),
                    row.elasticsearch().missing(), row.elasticsearch().extra(), row.elasticsearch().otherVersion(),
                    row.expectedDeadLetters(), row.unexpectedDeadLetters(),
                    row.deadLetterReasons().isEmpty() ? "" : " (" + row.deadLetterReasons().entrySet().stream()
                            .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")) + ")",
                    row.faultSeconds() == null ? "—" : String.format(Locale.ROOT, "%.0f s", row.faultSeconds()),
                    row.recovery(), row.docsPerSecond() == null ? "—" : String.format(Locale.ROOT, "%,.0f", row.docsPerSecond()),
                    row.passed() ? "yes" : "**NO**" + (row.error() == null ? "" : ": " + row.error())));
        }
        fuzzing(rows, md);
        rescaling(rows, md, pipeline.maxParallelism);
        Files.writeString(results.folder.resolve(report + ".md"), md);
    }

    /** The jobs of a row, and what they carried besides the documents. */
    private static String jobs(Row row) {
        String importedTopic = row.importedTopic() == null ? "" : String.format(Locale.ROOT,
                "imported topic: %,d records of %,d documents", row.importedTopic().records(), row.importedTopic().documents());
        if (row.jobs().equals(Topology.SEPARATE_JOBS.name())) {
            return "import, index (" + importedTopic + ")";
        }
        if (row.jobs().equals(Topology.CSV_IMPORT.name())) {
            return String.format(Locale.ROOT, "import-csv (the run's export, at %,.0f docs/s) beside import-and-index",
                    CSV_DOCS_PER_SECOND);
        }
        String fileTexts = row.fileTexts() == null ? "" : row.fileTexts().describe();
        if (row.jobs().equals(Topology.LIVE_FILE_TEXT.name())) {
            return "import-and-index, one live repository (" + fileTexts + ")";
        }
        if (row.jobs().equals(Topology.LIVE_TEXT_JOB.name())) {
            return String.format(Locale.ROOT, "import, index --file-text %s, index --file-text %s, one live repository "
                    + "(%s%s)", IndexSettings.FileText.none, IndexSettings.FileText.only, fileTexts,
                    importedTopic.isEmpty() ? "" : "; " + importedTopic);
        }
        return "import-and-index";
    }

    /**
     * With a fuzzed run among the rows: its records by kind, what became of them (dead letters by reason class, or
     * landed), and its throughput against the clean baseline of the same run.
     */
    private static void fuzzing(List<Row> rows, StringBuilder md) {
        Row fuzz = rows.stream().filter(row -> row.scenario().equals("fuzz")).findFirst().orElse(null);
        if (fuzz == null || fuzz.error() != null) {
            return;
        }
        md.append("\n## Fuzzing\n\n| kind | records | expected | dead letters by reason class |\n|---|---|---|---|\n");
        for (BadInput.Kind kind : BadInput.Kind.FUZZ) {
            Map<String, Long> reasons = fuzz.reasonsByKind().getOrDefault(kind.name(), Map.of());
            boolean bomb = kind == BadInput.Kind.PDF_BOMB;
            md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s%s |%n", kind.name().toLowerCase(Locale.ROOT)
                    .replace('_', ' '), fuzz.injectedKinds().getOrDefault(kind.name(), 0L),
                    kind.lands ? "lands in both stores" + (bomb ? ", its text given up" : "") : "dead letter",
                    reasons.isEmpty() ? "none" : reasons.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                            .collect(Collectors.joining(", ")),
                    bomb && fuzz.fileTextFailed() != null ? String.format(Locale.ROOT, "; files' text given up "
                            + "(fileTextFailed): %,d", fuzz.fileTextFailed()) : ""));
        }
        Map<String, Long> ofGoodDocuments = fuzz.reasonsByKind().getOrDefault("a good document", Map.of());
        md.append(String.format(Locale.ROOT, "%nGood documents (the hostile ones included) in both stores by id and "
                + "version: %,d of %,d in MongoDB, %,d in the search engine; good documents dead-lettered: %s; restarts caused "
                + "by records: 0 (the run fails otherwise).%n", fuzz.mongodb().found() - fuzz.mongodb().otherVersion(),
                fuzz.documents(), fuzz.elasticsearch().found() - fuzz.elasticsearch().otherVersion(),
                ofGoodDocuments.isEmpty() ? "none" : ofGoodDocuments));
        rows.stream().filter(row -> row.scenario().equals("clean") && row.docsPerSecond() != null).findFirst()
                .filter(clean -> fuzz.docsPerSecond() != null).ifPresent(clean -> md.append(String.format(Locale.ROOT,
                        "Throughput, submission to every good document in both stores: %,.0f docs/s fuzzed against "
                        + "%,.0f docs/s clean, measured in the same run: a ratio of %.2f.%n", fuzz.docsPerSecond(),
                        clean.docsPerSecond(), fuzz.docsPerSecond() / clean.docsPerSecond())));
    }

    /** With a rescaled run among the rows: its parallelism over time, each resume's time and each phase's rate. */
    private static void rescaling(List<Row> rows, StringBuilder md, int maxParallelism) {
        for (Row row : rows) {
            if (row.phases() == null) {
                continue;
            }
            md.append("\n## Rescaled from savepoints (").append(row.scenario()).append(")\n\n| parallelism | stop with a "
                    + "savepoint to running again | docs/s into MongoDB while at it | checkpoint state, median | "
                    + "checkpoint duration, median |\n|---|---|---|---|---|\n");
            for (Phase phase : row.phases()) {
                md.append(String.format(Locale.ROOT, "| %d | %s | %,.0f | %,d KiB | %,d ms |%n", phase.parallelism(),
                        phase.resumeSeconds() == null ? "(submitted)" : String.format(Locale.ROOT, "%.1f s",
                                phase.resumeSeconds()), phase.docsPerSecond(), phase.checkpointBytes() / 1024,
                        phase.checkpointMillis()));
            }
            md.append(String.format(Locale.ROOT, "%nThe jobs' max parallelism: %d. A TaskManager was killed once while at "
                    + "parallelism %d; the rates include its restart.%n", maxParallelism, Fault.RESCALED_UP));
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ReliabilityBenchmark()).setOverwrittenOptionsAllowed(true)
                .setExecutionExceptionHandler(Failures::oneLine).execute(args));
    }
}
