package io.volumizer.benchmarks.commands;

import static io.volumizer.harness.Stats.median;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

import org.bson.Document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Sorts;

import io.volumizer.harness.Await;
import io.volumizer.harness.Progress;
import io.volumizer.harness.ReindexMeasure;
import io.volumizer.ops.results.Report;
import io.volumizer.harness.Rounds;
import io.volumizer.harness.Samples;
import io.volumizer.harness.StoreIsolation;
import io.volumizer.harness.StoreIsolationOptions;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.api.commands.CommandReconciler;
import io.volumizer.api.commands.Commands;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.Options;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The commands' speed, on a repository the pipeline imported and keeps importing: the reindex job against a raw
 * ceiling measured in the same round on the same services (a plain loop reading MongoDB by id ranges, 1,000 at a
 * time, and sending them with the index stage's own {@code _bulk} writer into a new index with the same bulk-load
 * settings), also with MongoDB on cores of its own; and a bulk update of every statement (about 100,000 documents
 * with the default run): how fast the selection becomes events, and how long until every change is found by a
 * search. Writes {@code commands.json} and {@code commands.md}.
 */
@Command(name = "commands-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures the reindex job against a raw MongoDB-to-_bulk ceiling of the same round, and a bulk "
                + "update of every statement, on a repository the pipeline keeps importing; writes commands.json and "
                + "commands.md.",
        footer = {"%nExample:", "  bin/volumizer bench commands"})
public final class CommandsBenchmark extends PipelineRunCommand {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RAW = "raw ceiling: MongoDB id ranges → _bulk loop";
    private static final String JOB = "reindex job";
    private static final String RAW_ISOLATED = RAW + ", store on its own cores";
    private static final String JOB_ISOLATED = JOB + ", store on its own cores";
    private static final String FINISH = "reindex finish (catch-up, settings, refresh, alias), s";
    private static final String SELECTION = "bulk update: selection → events, docs/s";
    private static final String VISIBLE = "bulk update: submitted → every change found by search, s";
    private static final int RANGE = 1000;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of every measure; the table shows medians (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Mixin StoreIsolationOptions storeIsolation = new StoreIsolationOptions();

    /** A count or a command's state that stood still this long is stuck, not slow. */
    private static final Await AWAIT = Await.stalledFor(Duration.ofMinutes(5)).every(Duration.ofMillis(250));
    private final Samples samples = new Samples();
    private final Rounds quiet = new Rounds();
    private long documents;
    private long statements;
    private GeneratorSettings settings;

    @Override
    protected int run(GeneratorSettings run) throws Exception {
        settings = run;
        FlinkSessionClient flink = session.client();
        try (Stores stores = new Stores(pipeline); MongoClient mongo = MongoClients.create(pipeline.mongodb.uri);
             SearchEngine search = SearchEngines.open(pipeline.search)) {
            String repository = run.repository();
            stores.reset(repository);
            documents = new BankGenerator(run).documents().size();
            statements = new BankGenerator(run).documents().stream().filter(d -> d.getType().equals("Statement")).count();
            String jarId = flink.uploadJar(session.jar);
            flink.awaitState(flink.run(jarId, Step.GENERATE, generateArguments(), null), "FINISHED", Duration.ofMinutes(10));
            String importJob = flink.run(jarId, Step.IMPORT_AND_INDEX, Options.with(pipeline, "--group-id",
                    "bench-commands-" + System.currentTimeMillis()), null);
            System.out.printf(Locale.ROOT, "importing %,d documents%n", documents);
            AWAIT.every(Duration.ofSeconds(1)).until("imported", () -> stores.mongoEstimatedCount(repository), documents);
            AWAIT.every(Duration.ofSeconds(1)).until("indexed", () -> stores.elasticsearchCount(repository), documents);
            Commands commands = new Commands(flink, session.jar, MongoRepositories.sharing(mongo, pipeline.mongodb.database),
                    search, pipeline.indices(), Options.arguments(pipeline), pipeline.kafka.clientProperties());
            try {
                Rounds.run(rounds, round -> {
                    quiet.pair(round, () -> samples.record(RAW, rawCeiling(mongo, search)),
                            () -> samples.record(JOB, reindex(commands, stores)));
                    if (storeIsolation.enabled()) {
                        quiet.pair(round, () -> isolated(() -> samples.record(RAW_ISOLATED, rawCeiling(mongo, search))),
                                () -> isolated(() -> samples.record(JOB_ISOLATED, reindex(commands, stores))));
                    }
                    quiet.settle();
                    bulkUpdate(commands, stores, search, "round-" + round);
                });
            } finally {
                flink.cancel(importJob, Duration.ofMinutes(2));
            }
            stores.reset(repository);
        }
        write();
        return 0;
    }

    private void isolated(Rounds.Measure measure) throws Exception {
        try (StoreIsolation isolation = storeIsolation.isolate(LocalServices.ofThisCheckout())) {
            measure.run();
        }
    }


    /** The reindex job through its command; fails unless the new index holds every document. */
    private Progress reindex(Commands commands, Stores stores) throws Exception {
        ReindexMeasure reindex = ReindexMeasure.run(commands, settings.repository(), documents, RANGE);
        samples.add(FINISH, reindex.finishSeconds());
        long indexed = stores.elasticsearchCount(settings.repository());
        if (indexed != documents) {
            throw new IllegalStateException("after the reindex the index holds " + indexed + " of " + documents);
        }
        return reindex.progress();
    }

    /**
     * What a one-off script would do: read the collection in id ranges of 1,000 (keyset: after the last id read),
     * turn each stored document into the event the index stage takes, and write it with the same writer into a new
     * index with the same bulk-load settings; measured by its own count, as the job is by its ranges'.
     */
    private Progress rawCeiling(MongoClient mongo, SearchEngine search) throws Exception {
        SearchIndices indices = search.indices(pipeline.indices(), pipeline.indexLayouts());
        String generation = indices.createForReindex(settings.repository());
        SearchWriter store = indices.writer(Backoff.DEFAULT).into(generation);
        MongoCollection<Document> collection = mongo.getDatabase(pipeline.mongodb.database).getCollection(settings.repository());
        AtomicLong written = new AtomicLong();
        Progress progress = Progress.startingNow(documents);
        CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> {
            String last = null;
            while (true) {
                Document range = last == null ? new Document() : new Document(DocumentFields.KEY, new Document("$gt", last));
                List<Document> batch = collection.find(range).sort(Sorts.ascending(DocumentFields.KEY)).limit(RANGE)
                        .batchSize(RANGE).into(new ArrayList<>(RANGE));
                if (batch.isEmpty()) {
                    return;
                }
                List<ImportedEvent> events = batch.stream().filter(d -> !MongoDocumentStore.isTombstone(d))
                        .map(d -> MongoDocumentStore.toImported(d, null)).toList(); // files' texts: none in this repository
                var result = store.write(events);
                if (!result.failed().isEmpty()) {
                    throw new CompletionException(new IllegalStateException("raw loop: " + result.failed().get(0).reason()));
                }
                written.addAndGet(batch.size());
                last = batch.get(batch.size() - 1).getString(DocumentFields.KEY);
            }
        });
        while (!progress.complete()) {
            if (loop.isCompletedExceptionally() || (loop.isDone() && written.get() < documents)) {
                loop.join();
                throw new IllegalStateException("raw loop wrote " + written.get() + " of " + documents);
            }
            if (written.get() > 0) {
                progress.reached(written.get());
            }
            Thread.sleep(100);
        }
        loop.join();
        indices.deleteGeneration(generation);
        return progress;
    }

    /** Sets a property on every statement; measures the selection and when search finds every change. */
    private void bulkUpdate(Commands commands, Stores stores, SearchEngine search, String value) throws Exception {
        long started = System.nanoTime();
        String id = commands.bulk(settings.repository(), "setProperties", Map.of("type", "Statement"), false,
                JSON.createObjectNode().put("reviewed", value));
        JsonNode status;
        try (CommandReconciler.Schedule reconciling = commands.reconciler().reconciling(id)) {
            status = AWAIT.until("bulk update " + id, () -> commands.status(id),
                    state -> !state.path("state").asText().matches("SCHEDULED|RUNNING|APPLYING"));
        }
        if (!status.path("state").asText().equals("COMPLETED") || status.path("processed").asLong() != statements) {
            throw new IllegalStateException("bulk update " + id + " ended " + status);
        }
        double seconds = Duration.between(Instant.parse(status.path("started").asText()),
                Instant.parse(status.path("emitted").asText())).toMillis() / 1000.0;
        samples.add(SELECTION, statements / seconds);
        AWAIT.until("changes search finds", () -> reviewed(search, value), statements);
        double visible = (System.nanoTime() - started) / 1e9;
        samples.add(VISIBLE, visible);
        System.out.printf(Locale.ROOT, "%-60s %,10.0f docs/s; every change searchable after %.1f s%n", "bulk update of "
                + statements + " statements", statements / seconds, visible);
    }

    /** The documents search finds with the property "reviewed" of this value. */
    private long reviewed(SearchEngine search, String value) throws Exception {
        ObjectNode term = JSON.createObjectNode();
        term.putObject("term").put("properties.reviewed", value);
        return search.reader().count(List.of(pipeline.indices().of(settings.repository())), term);
    }


    private void write() throws Exception {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("date", Report.date());
        figures.put("machine", Report.machine());
        figures.put("documents", documents);
        figures.put("statements", statements);
        figures.put("rounds", rounds);
        figures.put("samples per round", samples);
        String table = String.join("\n",
                "# Command benchmarks (reindex, bulk update)", "",
                "Measured " + figures.get("date") + " on " + figures.get("machine") + "; a repository of "
                        + String.format(Locale.ROOT, "%,d", documents) + " documents (" + settings.customers()
                        + " customers), imported by the pipeline, whose import-and-index job keeps running throughout. "
                        + "Job parallelism " + pipeline.parallelism + "; ranges of " + RANGE + " documents. Each figure is the median of "
                        + rounds + " rounds; the ceiling and the job run one after the other in each round (the ceiling first in odd "
                        + "rounds), once the machine is quiet. *Sustained*: between 50% and 90% of the documents, past the job's start.",
                "The reindex is measured from its ranges' counts (documents read and written into the new index); its finish "
                        + "(catch-up of what was imported meanwhile, settings restored, refresh, alias moved, old index deleted) is "
                        + "reported apart.", "",
                "| measure | docs/s sustained (whole run) | ceiling, docs/s sustained (whole run) | ratio sustained (range) | ratio whole run (range) | target | met |",
                "|---|---|---|---|---|---|---|",
                samples.row("reindex job, every service on the same cores", JOB, "", RAW, 0.85),
                storeIsolation.enabled() ? samples.row("reindex job, MongoDB on cores of its own (cores " + StoreIsolation.storeCores(Report.cores())
                        + ", the rest on " + StoreIsolation.otherCores(Report.cores()) + ")", JOB_ISOLATED, "", RAW_ISOLATED, 0.85)
                        : "| reindex job, MongoDB on cores of its own | not measured (no --store-service) | | | | ≥ 0.85× | |",
                String.format(Locale.ROOT, "| reindex finish, s | %.1f | | | | | |", samples.median(FINISH)),
                String.format(Locale.ROOT, "| bulk update of %,d statements: selection → events on the documents topic, docs/s | %,.0f | | | | | |",
                        statements, samples.median(SELECTION)),
                String.format(Locale.ROOT, "| bulk update: from submission until search finds every change (import and index included), s | %.1f | | | | | |",
                        samples.median(VISIBLE)), "");
        Report.write(results.folder, "commands", figures, table);
        System.out.println(table);
    }
}
