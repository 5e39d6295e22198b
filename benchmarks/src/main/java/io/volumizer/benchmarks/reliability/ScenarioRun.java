package io.volumizer.benchmarks.reliability;

import io.volumizer.harness.BadInput;
import io.volumizer.harness.Counts;
import io.volumizer.harness.StoreAudit;
import io.volumizer.harness.StoreAudit.ImportedTopic;
import io.volumizer.harness.Throughput;
import io.volumizer.harness.Trigger;
import io.volumizer.harness.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.bson.Document;

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
import io.volumizer.ops.flink.RetainedCheckpoints;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.stores.Stores;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.steps.Step;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;

/** One scenario, on topics, a database and an index of its own. */
final class ScenarioRun {

    private final ReliabilityBenchmark bench;

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

    ScenarioRun(ReliabilityBenchmark bench, Scenario scenario, List<DocumentEvent> generated, GeneratorSettings settings) {
        this.bench = bench;
        this.scenario = scenario;
        this.generated = generated;
        this.settings = settings;
        String name = "rel-" + bench.runId + "-" + Scenario.KNOWN.indexOf(scenario);
        List<String> overrides = Options.with(bench.pipeline, "--topics-of", name, "--mongodb-database",
                name.replace('-', '_'), "--index-prefix", name + "-");
        if (scenario.readsFiles()) {
            overrides.addAll(List.of("--topology", LiveTopology.file(name, settings.repository()).toString(),
                    "--blob-store", ReliabilityBenchmark.blobStore(name).toString()));
        }
        if (scenario.fault() == Fault.BACKLOG) {
            // One more partition than readers: one reader has two, and reads each at half the other's pace.
            overrides.addAll(List.of("--partitions", Integer.toString(bench.pipeline.parallelism > 0 ? bench.pipeline.parallelism + 1 : 3)));
        }
        if (scenario.fault() == Fault.RESCALED) {
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
                scenario.fault().prepare(faults());
                BadInput.Injected bad = fill();
                Map<String, Long> expected = generated.stream().filter(d -> !bad.replacedIds().contains(d.getId()))
                        .collect(Collectors.toMap(DocumentEvent::getId, DocumentEvent::getVersion));
                // The texts come after their documents: the live topology's run is through once they are in too.
                long texts = scenario.topology().live() ? readableFiles(bad) : 0;
                submittedAt = System.currentTimeMillis();
                submit(switch (scenario.fault()) {
                    case BAD_INPUT, CLEAN, FUZZ -> List.of("--parent-wait-margin", "PT5S");
                    // A margin of one second: it is the import's progress, not the margin, that waits for parents.
                    case BACKLOG -> List.of("--parent-wait-margin", "PT1S");
                    default -> List.of();
                });
                ScheduledExecutorService monitor = Executors.newSingleThreadScheduledExecutor();
                monitor.scheduleAtFixedRate(() -> poll(collection, stores), 0, 500, TimeUnit.MILLISECONDS);
                List<long[]> windows;
                try {
                    windows = scenario.fault().inject(faults(), new Trigger(collection::estimatedDocumentCount,
                            expected.size(), bench.faultAt));
                    awaitThrough(collection, stores, expected.size(), bad.positions().size(), texts);
                    poll(collection, stores); // the counts at the end, which the monitor may not have sampled yet
                } finally {
                    monitor.shutdownNow();
                }
                Thread.sleep(3_000); // a last checkpoint: dead letters are committed with it
                return audit(stores, collection, search, expected, bad, windows, texts);
            } finally {
                // a job the cluster no longer knows (lost with its JobManager) is named, and left
                ScopedRun.cancelUnfinished(bench.flink, jobs, Duration.ofMinutes(2));
                scenario.fault().restore(faults());
                bench.services.start(); // whatever a fault left down
                stores.reset(settings.repository(), options.documentsTopic(), options.importedTopic(), options.deadletterTopic(),
                        options.controlTopic());
                mongo.getDatabase(options.mongodb.database).drop();
                search.indices(options.indices()).deleteAll();
            }
        }
    }

    private Faults faults() {
        return new Faults(bench.services, bench.outage, options, this::recover, this::pause, this::rescale, bench.searchService);
    }

    /** The documents topic: generated by the generate job, or produced here with bad records among them. */
    private BadInput.Injected fill() throws Exception {
        if (scenario.topology() == Topology.CSV_IMPORT) {
            return BadInput.Injected.NONE; // the CSV job fills the topic while the faults hit
        }
        if (!scenario.fault().isInput()) {
            String generate = bench.flink.run(bench.jarId, Step.GENERATE, bench.generateArguments(options), null);
            jobs.add(generate);
            bench.flink.awaitState(generate, "FINISHED", Duration.ofMinutes(15));
            return BadInput.Injected.NONE;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.kafka.bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(options.documentsTopic(), options.partitions,
                    options.topicSettings.replicationFactor).configs(options.topicSettings.configs()))).all().get();
        }
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url),
                AvroCodec.valueSubject(options.documentsTopic()), DocumentEvent.class);
        return BadInput.produce(options.kafka.bootstrapServers, options.documentsTopic(), codec, generated,
                scenario.fault().badShare(), settings.seed(), BadInput.jsonSchemaId(options.registry.url,
                        options.documentsTopic()), scenario.fault().badKinds(), this::uploadPdfBomb);
    }

    /** The PDF bomb stored in the repository's blob store as the API stores an upload: its reference. */
    private BlobRef uploadPdfBomb() {
        try (RepositoryBlobStores.Opened stores = options.repositoryBlobStores().open()) {
            return Uploads.store(stores.of(settings.repository()).orElseThrow(), HostileFiles.inflatingPdf(
                    BadInput.Kind.BOMB_MIB), "statement.pdf");
        }
    }

    private void submit(List<String> importOptions) throws Exception {
        String group = "rel-" + bench.runId + "-" + scenario.id();
        List<String> importArgs = Options.with(options, "--group-id", group);
        importArgs.addAll(importOptions);
        switch (scenario.topology()) {
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
                                new ThrottleSettings.Change.Limit(ReliabilityBenchmark.CSV_DOCS_PER_SECOND), "reliability-benchmark");
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
        Path file = Files.createTempFile("rel-" + bench.runId + "-" + scenario.id(), ".csv");
        CsvExport.toFile(new BankGenerator(settings), file);
        return file;
    }

    /** Runs a submission's step with the options it was submitted with, from a savepoint or none. */
    private void start(String name, String savepoint) throws Exception {
        Submission submission = submitted.get(name);
        String job = bench.flink.run(bench.jarId, submission.step(), submission.args(), savepoint);
        jobs.add(job);
        running.put(name, job);
        bench.flink.awaitState(job, "RUNNING", Duration.ofMinutes(2));
    }

    /** Each job stopped with a savepoint for the bench.outage, then resumed from it with the options it ran with. */
    private void pause() throws Exception {
        Map<String, String> savepoints = stopWithSavepoints();
        Thread.sleep(bench.outage.toMillis());
        for (Map.Entry<String, String> savepoint : savepoints.entrySet()) {
            start(savepoint.getKey(), savepoint.getValue());
        }
    }

    /** Each job stopped with a savepoint, then resumed from it at {@code parallelism}, as job resume does. */
    private void rescale(int parallelism) throws Exception {
        checkpoints.add(Throughput.checkpointMedians(bench.flink, running.values()));
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

    /** The running jobs stopped with a savepoint each (a bounded job may be done): where each savepoint is. */
    private Map<String, String> stopWithSavepoints() throws Exception {
        Map<String, String> savepoints = new LinkedHashMap<>();
        for (Map.Entry<String, String> job : running.entrySet()) {
            if (!FlinkSessionClient.isTerminal(bench.flink.state(job.getValue()))) {
                savepoints.put(job.getKey(), bench.flink.stopWithSavepoint(job.getValue(), Duration.ofMinutes(5)));
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
        checkpoints.add(Throughput.checkpointMedians(bench.flink, running.values()));
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

    /**
     * After the JobManager was lost with the jobs: each job resumed from its newest retained checkpoint, as job
     * recover does; the jar uploaded again, as the restarted JobManager holds none.
     */
    private void recover() throws Exception {
        String recoveredJar = bench.flink.uploadJar(bench.session.jar);
        String clusterFolder = bench.flink.clusterSetting("execution.checkpointing.dir").orElseThrow(() ->
                new IllegalStateException("the cluster has no execution.checkpointing.dir: no checkpoint is retained"));
        for (Map.Entry<String, Submission> submission : submitted.entrySet()) {
            Step step = submission.getValue().step();
            String folder = step.checkpointDirectory(clusterFolder,
                    (PipelineStepOptions) step.parse(submission.getValue().args()));
            String checkpoint = RetainedCheckpoints.newest(folder).orElseThrow(() ->
                    new IllegalStateException("no retained checkpoint of " + submission.getKey() + " in " + folder));
            String jobId = bench.flink.run(recoveredJar, step, submission.getValue().args(), checkpoint);
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

    /**
     * Until every good document is in both stores, the bad records dead-lettered and the texts indexed, for as long
     * as those counts move (a store down counts -1); when they stand still, the audit says what is missing.
     */
    private void awaitThrough(MongoCollection<Document> collection, Stores stores, long documents, long deadLetters,
            long texts) throws Exception {
        try {
            Await.stalledFor(bench.stalledAfter).every(Duration.ofSeconds(1)).until("documents, dead letters, texts", () -> List.of(
                    Counts.orMinusOne(collection::estimatedDocumentCount),
                    Counts.orMinusOne(() -> stores.elasticsearchCount(settings.repository())),
                    deadLetters == 0 ? 0L : stores.committedRecords(options.deadletterTopic()),
                    // counted after the refresh of elasticsearchCount
                    texts == 0 ? 0L : Counts.orMinusOne(() -> textsIndexed(stores))),
                    counts -> counts.get(0) >= documents && counts.get(1) >= documents && counts.get(2) >= deadLetters
                            && counts.get(3) >= texts);
        } catch (IllegalStateException stalled) {
            System.out.println("  " + stalled.getMessage());
        }
    }

    /** The repository's documents whose file's text is indexed, as of the last refresh. */
    private long textsIndexed(Stores stores) {
        return Counts.orFail(() -> stores.searchableFileTexts(options.indices(), settings.repository()));
    }

    /** The good documents with a file whose text the index reads: each must end with its text in both stores. */
    private long readableFiles(BadInput.Injected bad) {
        return generated.stream().filter(d -> !bad.replacedIds().contains(d.getId()))
                .filter(d -> FileText.readable(d.getBlob())).count();
    }

    private Row audit(Stores stores, MongoCollection<Document> collection, SearchEngine search,
            Map<String, Long> expected, BadInput.Injected bad, List<long[]> windows, long texts) throws Exception {
        if (scenario.fault().isInput()) {
            long restarts = 0;
            for (String job : running.values()) {
                restarts += bench.flink.restarts(job);
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
        for (DeadLetter letter : StoreAudit.deadLetters(stores, options)) {
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
        ImportedTopic importedTopic = scenario.topology() == Topology.SEPARATE_JOBS
                || scenario.topology() == Topology.LIVE_TEXT_JOB ? StoreAudit.importedTopic(stores, options) : null;
        // The index was refreshed by its audit above.
        FileTexts fileTexts = scenario.topology().live() ? new FileTexts(texts, textsIndexed(stores),
                stores.storedFileTexts(settings.repository())) : null;
        return new Row(scenario.id(), scenario.fault().description(bench.outage), scenario.topology().name(), expected.size(),
                bad.positions().size(), mongo, indexedDocuments, expectedLetters, unexpectedLetters, reasons,
                importedTopic, Throughput.faultSeconds(windows),
                Throughput.recoverySeconds(List.of(imported, indexed), windows, started, expected.size()),
                (System.currentTimeMillis() - started) / 1000, docsPerSecond, kinds, reasonsByKind,
                scenario.readsFiles() ? fileTextFailed() : null, fileTexts, phases(expected.size()), null);
    }

    /** The files whose text the jobs gave up (unreadable, or past a budget): no job restarted in such a run. */
    private long fileTextFailed() throws Exception {
        long failed = 0;
        for (String job : running.values()) {
            failed += bench.flink.metricSum(job, "", MetricNames.FILE_TEXT_FAILED);
        }
        return failed;
    }

    /** A job of a scenario's: the step it runs, and the options it was submitted with (and is resumed with). */
    private record Submission(Step step, List<String> args) {
    }
}
