package io.volumizer.campaigns.run;

import static com.mongodb.client.model.Filters.eq;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.bson.Document;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Sorts;

import io.volumizer.api.commands.Commands;
import io.volumizer.harness.ProcessCpu;
import io.volumizer.harness.Await;
import io.volumizer.harness.CustomerQueries;
import io.volumizer.harness.Progress;
import io.volumizer.harness.ReindexMeasure;
import io.volumizer.harness.ServiceFaults;
import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignStep;
import io.volumizer.campaigns.file.StepSpec;
import io.volumizer.generators.BankGenerator;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.flink.SessionOptions;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.CommittedRecordCount;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.ReindexOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchResult;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs a campaign's steps on the local services: imports by the pipeline's jobs on the Flink session cluster (the
 * generate job for the next customers, the import and index jobs running until the repository holds the size, then
 * stopped with savepoints), reindexes by the reindex command, measures with navigation (MongoDB: a customer's
 * folder and its children, as a browse reads them) and search (the customer's documents with their aggregations,
 * as the API asks the engine) at fixed rates, and faults by {@link ServiceFaults}. Each step's figures are written
 * as the results folder's step file.
 */
public final class LocalCampaign implements StepExecutor, AutoCloseable {

    /** Between two readings of the stores while an import runs: the series' resolution. */
    private static final Duration SAMPLE = Duration.ofSeconds(5);
    /** An import fails when neither store's count moved for this long (a job restarting takes under a minute). */
    private static final Duration STALLED = Duration.ofMinutes(3);
    private static final Duration JOB_START = Duration.ofMinutes(2);

    private final Campaign campaign;
    private final PipelineOptions pipeline;
    private final FlinkSessionClient flink;
    private final Path jar;
    private final CampaignGeneration generation;
    private final LocalServices services;
    private final Stores stores;
    private final MongoRepositories mongo;
    private final Observations observations;
    private final BankGenerator generator;
    private String jarId;

    /**
     * @param pipeline its topics and groups those of the campaign's repository
     */
    public LocalCampaign(Campaign campaign, PipelineOptions pipeline, SessionOptions session, LocalServices services) {
        this.campaign = campaign;
        this.pipeline = pipeline;
        this.flink = session.client();
        this.jar = session.jar;
        this.generation = new CampaignGeneration(campaign);
        this.generator = new BankGenerator(generation.settings());
        this.services = services;
        this.stores = new Stores(pipeline);
        this.mongo = new MongoRepositories(pipeline.repositoryDatabases(), MongoClients::create);
        this.observations = new Observations(pipeline, stores, mongo, services, campaign.repository());
    }

    /** Empties the campaign's repository (topics, collection, index): a new run builds it from nothing. */
    public void reset() throws IOException {
        stores.reset(campaign.repository());
    }

    /** The free space of the services' disk. */
    public long diskFreeBytes() {
        return observations.diskFreeBytes();
    }

    /** run.json's machine and versions. */
    public ObjectNode describe() {
        return RunDescription.of(services.root(), services.state(), stores, mongo, campaign.repository());
    }

    @Override
    public ObjectNode run(CampaignStep step) throws Exception {
        ObjectNode result = RunFolder.JSON.createObjectNode();
        result.put("position", step.position()).put("id", step.id()).put("kind", step.spec().kind());
        if (step.size() != null) {
            result.putObject("size").put("label", step.size().label()).put("documents", step.size().documents());
        }
        if (step.spec() instanceof StepSpec.Measure measure) {
            // Before the step's clock and CPU readings: the warm-up is neither its time nor its cost a request. Its
            // own seed: the customers measured are not those it asked for, whose answers it left in the caches.
            OpenModelLoad.run(scenarios(step, measure), measure.warmUp(), -step.position());
            result.put("warmUpSeconds", measure.warmUp().toSeconds());
        }
        List<String> notes = new ArrayList<>();
        Instant started = Instant.now();
        long startNanos = System.nanoTime();
        long before = stores.mongoEstimatedCount(campaign.repository());
        ProcessCpu cpu = observations.processes();
        Map<String, Double> cpuBefore = cpu.read();
        long[] work = work(step, result, notes, startNanos, before);
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        Map<String, Double> cpuAfter = null;
        try {
            cpuAfter = cpu.read();
        } catch (IllegalStateException e) {
            notes.add("CPU not measured: a service's process ended during the step (" + e.getMessage() + ")");
        }
        result.put("started", started.toString()).put("ended", Instant.now().toString())
                .put("seconds", Observations.round(seconds, 1));
        long expected = step.size() == null ? 0 : generation.documentsAt(step.size().documents());
        long after = observations.record(result, expected, notes);
        if (!result.path("changes").path("reconciled").asBoolean(true)) {
            // A command's changes not as the stores hold them: the step did not reconcile, whatever the counts say.
            ((ObjectNode) result.get("reconciliation")).put("reconciled", false);
        }
        result.putObject("documents").put("before", before).put("after", after);
        if (cpuAfter != null) {
            Observations.cpu(result, cpuBefore, cpuAfter, work[0], work[1]);
        }
        ArrayNode notesJson = result.putArray("notes");
        notes.forEach(notesJson::add);
        return result;
    }

    /** Runs the step's own part; returns the documents it moved and the requests it sent. */
    private long[] work(CampaignStep step, ObjectNode result, List<String> notes, long startNanos, long before)
            throws Exception {
        StepSpec spec = step.spec();
        if (spec instanceof StepSpec.Import imported) {
            return importTo(step, imported, result, startNanos, before);
        } else if (spec instanceof StepSpec.Measure measure) {
            return measure(step, measure, result, notes);
        } else if (spec instanceof StepSpec.Reindex reindex) {
            return reindex(reindex, result, startNanos, notes);
        } else if (spec instanceof StepSpec.Bulk bulk) {
            return whileImporting(jobs -> commandSteps(jobs).bulk(bulk, result, startNanos, notes));
        } else if (spec instanceof StepSpec.Acl acl) {
            return whileImporting(jobs -> commandSteps(jobs).acl(acl, result, startNanos, notes));
        }
        return fault((StepSpec.Fault) spec, notes);
    }

    private long[] importTo(CampaignStep step, StepSpec.Import spec, ObjectNode result, long startNanos, long before)
            throws Exception {
        String repository = campaign.repository();
        long expected = generation.documentsAt(spec.to().documents());
        long indexedBefore = stores.searchableCount(pipeline.indices(), repository);
        return whileImporting(jobs -> {
            var letters = KafkaAvroSerde.deserializer(pipeline.registry.url, DeadLetter.class);
            String deadletterTopic = pipeline.deadletterTopic();
            try (CommittedRecordCount deadLetters = stores.committedRecordCount(deadletterTopic,
                    value -> letters.deserialize(deadletterTopic, value).getStage())) {
                if (before < expected) {
                    // Not when a resumed step finds the repository at its size: the generator would only write
                    // documents it holds, which the next import would read again.
                    List<String> generate = Options.with(pipeline,
                            generation.generateArguments(step).toArray(String[]::new));
                    jobs.add(flink.run(jarId(), Step.GENERATE, generate, null));
                }
                Series importSeries = new Series("import", startNanos, before);
                Series indexSeries = new Series("index", startNanos, indexedBefore);
                // Each stage's rates from its last reading before anything moved: the jobs' start is not its throughput.
                Progress importProgress = new Progress(Math.max(1, expected - before));
                Progress indexProgress = new Progress(Math.max(1, expected - indexedBefore));
                ImportCompletion completion = new ImportCompletion(expected);
                Await.stalledFor(STALLED).every(SAMPLE).until("import to " + spec.to().label(), () -> {
                    checkRunning(jobs);
                    long now = System.nanoTime();
                    Map<String, Long> byStage = deadLetters.byKey();
                    long imported = stores.mongoEstimatedCount(repository);
                    long indexed = stores.searchableCount(pipeline.indices(), repository);
                    long notImported = ImportCompletion.beforeMongoDb(byStage);
                    importSeries.sample(now, imported + notImported);
                    indexSeries.sample(now, indexed);
                    reading(importProgress, imported + notImported - before);
                    reading(indexProgress, indexed + ImportCompletion.byIndex(byStage) - indexedBefore);
                    // What the jobs read moves too: an import replaying documents the stores hold is not stalled.
                    long deadLettered = byStage.values().stream().mapToLong(Long::longValue).sum();
                    return new ImportReading(List.of(imported, indexed, deadLettered,
                            flink.recordsSentBySources(jobs.get(0)) + flink.recordsSentBySources(jobs.get(1))),
                            completion.through(imported, indexed, byStage));
                }, ImportReading::through);
                ArrayNode rates = result.putArray("rates");
                rate(rates, "import", importProgress);
                rate(rates, "index", indexProgress);
                ArrayNode series = result.putArray("series");
                importSeries.addTo(series);
                indexSeries.addTo(series);
            }
            return new long[] {expected - before, 0};
        });
    }

    /** An import's reading: what moves (a stalled import moves nothing), and whether the step is through. */
    private record ImportReading(List<Long> moving, boolean through) {
    }

    /** What runs while the campaign's import and index jobs do; it may add jobs of its own to {@code jobs}. */
    private interface WhileImporting {
        long[] run(List<String> jobs) throws Exception;
    }

    /**
     * Runs {@code work} while the campaign's import and index jobs run (they apply the generator's documents, and a
     * command's changes, as the running import does for a user), then stops them with savepoints. It leaves no job
     * running, its own or those {@code work} added, after a failure or an interrupt too: a resume submits its own.
     */
    private long[] whileImporting(WhileImporting work) throws Exception {
        String repository = campaign.repository();
        String importJob = flink.run(jarId(), Step.IMPORT, Options.with(pipeline, "--group-id",
                Step.IMPORT.consumerGroup(repository)), null);
        String indexJob = flink.run(jarId(), Step.INDEX, Options.with(pipeline, "--index-group-id",
                Step.INDEX.consumerGroup(repository)), null);
        List<String> jobs = new ArrayList<>(List.of(importJob, indexJob));
        try {
            flink.awaitState(importJob, "RUNNING", JOB_START);
            flink.awaitState(indexJob, "RUNNING", JOB_START);
            long[] moved = work.run(jobs);
            flink.stopWithSavepoint(importJob, JOB_START);
            flink.stopWithSavepoint(indexJob, JOB_START);
            // Any other still running is cancelled below: a generator still writing is writing documents the
            // repository already holds (a resumed step generates its customers again).
            jobs.removeAll(List.of(importJob, indexJob));
            return moved;
        } finally {
            // Cancelled also when the campaign is being stopped: its interrupt would fail the requests that cancel.
            boolean interrupted = Thread.interrupted();
            try {
                for (String job : jobs) {
                    if (!FlinkSessionClient.isTerminal(flink.state(job))) {
                        flink.cancel(job, JOB_START);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** @throws IllegalStateException when one of {@code jobs} failed or was cancelled */
    private void checkRunning(List<String> jobs) throws IOException {
        for (String job : jobs) {
            String state = flink.state(job);
            if (state.equals("FAILED") || state.equals("CANCELED")) {
                throw new IllegalStateException("job " + job + " " + state + ": " + flink.exceptions(job));
            }
        }
    }

    static void reading(Progress progress, long moved) {
        if (moved > 0) {
            progress.reached(moved);
        } else {
            progress.idle();
        }
    }

    static void rate(ArrayNode rates, String stage, Progress progress) {
        ObjectNode rate = rates.addObject().put("stage", stage).put("documents", progress.count());
        if (progress.count() == 0 || progress.elapsedNanos() == 0) {
            return; // nothing moved, or all of it between two readings: no rate to tell
        }
        rate.put("docsPerSecond", Observations.round(progress.rate(), 1));
        try {
            rate.put("sustainedDocsPerSecond", Observations.round(progress.sustainedRate(), 1));
        } catch (IllegalStateException e) {
            // too few samples between 50% and 90% of a short step's documents: the field is left out
        }
    }

    /** A measure's requests, at its rates: those it records, and those of its warm-up before. */
    private List<OpenModelLoad.Scenario> scenarios(CampaignStep step, StepSpec.Measure spec) {
        if (step.size() == null) {
            throw new IllegalStateException("a measure before any import has no documents to ask for");
        }
        long customers = generation.customersFor(step.size().documents());
        String alias = pipeline.indices().of(campaign.repository());
        MongoCollection<Document> documents = mongo.collection(campaign.repository());
        List<OpenModelLoad.Scenario> scenarios = new ArrayList<>();
        if (spec.navigationPerSecond() > 0) {
            scenarios.add(new OpenModelLoad.Scenario("navigation", spec.navigationPerSecond(), random -> {
                String folder = BankGenerator.customerId(generator.model().customer(random.nextLong(customers)));
                if (documents.find(eq(DocumentFields.KEY, folder)).first() == null) {
                    throw new IllegalStateException("no folder " + folder);
                }
                documents.find(eq(DocumentFields.PARENT_ID, folder)).sort(Sorts.ascending(DocumentFields.NAME)).limit(20)
                        .into(new ArrayList<>());
            }));
        }
        if (spec.searchPerSecond() > 0) {
            scenarios.add(new OpenModelLoad.Scenario("search", spec.searchPerSecond(), random -> {
                String customer = generator.model().customer(random.nextLong(customers)).number();
                SearchResult answer = stores.search().reader().search(List.of(alias),
                        CustomerQueries.query(customer, true));
                if (answer.total().value() == 0) {
                    throw new IllegalStateException("no documents of customer " + customer);
                }
            }));
        }
        return scenarios;
    }

    private long[] measure(CampaignStep step, StepSpec.Measure spec, ObjectNode result, List<String> notes)
            throws Exception {
        List<OpenModelLoad.Scenario> scenarios = scenarios(step, spec);
        long requests = 0;
        ArrayNode latencies = result.putArray("latencies");
        for (OpenModelLoad.Result measured : OpenModelLoad.run(scenarios, spec.duration(), step.position())) {
            requests += measured.requests();
            ObjectNode row = latencies.addObject().put("scenario", measured.scenario())
                    .put("ratePerSecond", measured.perSecond()).put("requests", measured.requests())
                    .put("errors", measured.errors()).put("unanswered", measured.unanswered());
            if (measured.unanswered() > 0) {
                notes.add(String.format(Locale.ROOT, "%s: %,d of %,d requests unanswered %d s after the last was sent "
                        + "(counted as errors): the stores did not keep up with %d a second at this size",
                        measured.scenario(), measured.unanswered(), measured.requests(),
                        OpenModelLoad.GRACE.toSeconds(), measured.perSecond()));
            }
            if (measured.sortedNanos().length > 0) {
                row.put("p50Ms", Observations.round(measured.percentileMs(50), 2))
                        .put("p95Ms", Observations.round(measured.percentileMs(95), 2))
                        .put("p99Ms", Observations.round(measured.percentileMs(99), 2))
                        .put("maxMs", Observations.round(measured.percentileMs(100), 2));
            }
        }
        return new long[] {0, requests};
    }

    private long[] reindex(StepSpec.Reindex spec, ObjectNode result, long startNanos, List<String> notes)
            throws Exception {
        int rangeSize = spec.rangeSize() != null ? spec.rangeSize() : Integer.parseInt(
                CommandSpec.forAnnotatedObject(new ReindexOptions()).findOption("--range-size").defaultValue());
        long documents = stores.mongoCount(campaign.repository());
        Series series = new Series("reindex", startNanos, 0);
        Commands commands = commands();
        // A reindex the campaign aborted when it was stopped goes on from its savepoint, into the index it began.
        Optional<String> aborted = commands.abortedReindex(campaign.repository());
        String id;
        if (aborted.isPresent()) {
            id = aborted.get();
            commands.resume(id);
            notes.add("resumed reindex " + id + " from the savepoint it was aborted with when the campaign stopped");
        } else {
            id = ReindexMeasure.start(commands, campaign.repository(), rangeSize);
        }
        ReindexMeasure measure = ReindexMeasure.of(commands, id, documents,
                processed -> series.sample(System.nanoTime(), processed));
        ArrayNode rates = result.putArray("rates");
        rate(rates, "reindex", measure.progress());
        // The command's finish (catch-up of what was imported meanwhile, settings, alias moved) apart from its rate.
        ((ObjectNode) rates.get(0)).put("finishSeconds", Observations.round(measure.finishSeconds(), 1));
        series.addTo(result.putArray("series"));
        return new long[] {documents, 0};
    }

    /** The commands as the CLI runs them: their jobs from the campaign's jar, on its repository's topics. */
    private Commands commands() {
        return new Commands(flink, jar, mongo, stores.search(), pipeline.indices(), Options.arguments(pipeline),
                pipeline.kafka.clientProperties());
    }

    /** The bulk and acl steps, failing as soon as one of the import's {@code jobs} does. */
    private CommandSteps commandSteps(List<String> jobs) {
        return new CommandSteps(commands(), stores, mongo, pipeline.indices(), campaign.repository(),
                () -> checkRunning(jobs));
    }

    private long[] fault(StepSpec.Fault spec, List<String> notes) throws Exception {
        ServiceFaults faults = new ServiceFaults(services);
        long[] window = spec.outage() == null ? faults.kill(spec.service()) : faults.down(spec.service(), spec.outage());
        notes.add((spec.outage() == null ? "killed " + spec.service() + " (SIGKILL) and started it again"
                : "stopped " + spec.service() + " for " + spec.outage() + " and started it again") + ", in "
                + Observations.round((window[1] - window[0]) / 1000.0, 1) + " s");
        return new long[] {0, 0};
    }

    private String jarId() throws IOException {
        if (jarId == null) {
            jarId = flink.uploadJar(jar);
        }
        return jarId;
    }

    @Override
    public void close() throws IOException {
        mongo.close();
        stores.close();
    }
}
