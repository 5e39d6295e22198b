package io.volumizer.benchmarks.engines;

import static io.volumizer.harness.Stats.median;
import static io.volumizer.harness.Stats.ratioWithRange;
import static io.volumizer.harness.Stats.ratios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.volumizer.ops.results.Report;
import io.volumizer.api.commands.Commands;
import io.volumizer.harness.Counts;
import io.volumizer.harness.ReindexMeasure;
import io.volumizer.harness.CustomerQueries;
import io.volumizer.harness.ImportedForm;
import io.volumizer.harness.QuerySamples;
import io.volumizer.harness.SearchLoadOptions;
import io.volumizer.harness.SessionJobs;
import io.volumizer.harness.BaselineLoop;
import io.volumizer.harness.Await;
import io.volumizer.harness.Progress;
import io.volumizer.harness.QuietMachine;
import io.volumizer.harness.Through;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.stores.CommittedRecordCount;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchTuning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The search engines side by side, in the same run on the same services: for each engine, the index job against a
 * raw {@code _bulk} loop into that engine, the reindex through its command, and a customer's search (without and
 * with aggregations) at each of {@code --users}. One import fills MongoDB and the imported topic that every index
 * job reads; in each round the engines take turns (the first named first in odd rounds), and within an engine's
 * turn the loop and the job do (the loop first in odd rounds), each once the machine is quiet. The first engine
 * named is the baseline of the others' ratios. Writes {@code engines.json} and {@code engines.md}.
 */
@Command(name = "engines-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures Elasticsearch and OpenSearch side by side in one run: the index job against a raw _bulk "
                + "loop, the reindex, and a customer's searches; writes engines.json and engines.md.",
        footer = {"%nExample:", "  bin/volumizer bench engines"})
public final class EnginesBenchmark extends PipelineRunCommand {

    private static final String RAW_BULK = "raw _bulk loop";
    private static final String INDEX_JOB = "index job";
    private static final String REINDEX = "reindex job";
    private static final String FINISH = "reindex finish, s";
    private static final String DEAD_LETTERED = "index job, dead-lettered";
    private static final String SUSTAINED = ", sustained";
    private static final List<String> QUERIES = List.of("simple", "aggregations");
    private static final int RANGE = 1000;
    /** No count moved for this long: the measure is stuck, not slow. */
    private static final Duration STALLED_AFTER = Duration.ofMinutes(5);
    private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(2);

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--engine", split = ",", paramLabel = "ENGINE=URL", description = "An engine to measure and "
            + "its cluster's URL; give two or more. The first is the baseline of the others' ratios.")
    LinkedHashMap<SearchOptions.Engine, String> engines;

    @Option(names = "--rounds", defaultValue = "2", description = "Rounds of every measure (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Mixin SearchLoadOptions searchLoad = new SearchLoadOptions();

    private final String runId = Long.toString(System.currentTimeMillis(), 36);
    private final Await polling = Await.stalledFor(STALLED_AFTER);
    private final QuietMachine quiet = QuietMachine.forMeasures();
    /** Per engine, per measure, one value per round. */
    private final Map<String, Map<String, List<Double>>> samples = new LinkedHashMap<>();
    /** Per engine, per search cell, its latencies (ns) over every round, and the seconds they were measured over. */
    private final Map<String, Map<String, QuerySamples>> searches = new LinkedHashMap<>();
    private final Map<String, String> versions = new LinkedHashMap<>();
    private GeneratorSettings settings;
    private FlinkSessionClient flink;
    private SessionJobs jobs;

    /** One engine under measure: the pipeline's options pointed at it, and its clients. */
    private record Target(String name, PipelineOptions options, Stores stores, SearchEngine search, Commands commands) {
    }

    @Override
    protected int run(GeneratorSettings run) throws Exception {
        settings = run;
        Options.require(engines.size() >= 2 && !engines.containsKey(SearchOptions.Engine.auto),
                "--engine: name two engines or more (elasticsearch=URL, opensearch=URL), was " + engines.keySet());
        Options.require(rounds >= 1, "--rounds must be positive, was " + rounds);
        searchLoad.validate();
        jobs = SessionJobs.open(session, pipeline.parallelism, "the benchmark", CANCEL_TIMEOUT).orElse(null);
        if (jobs == null) {
            return 2;
        }
        flink = jobs.flink;
        BankGenerator generator = new BankGenerator(settings);
        ImportedForm form = new ImportedForm();
        List<ImportedEvent> documents = generator.documents().stream().map(form::of).toList();
        String[] customers = CustomerQueries.customers(generator);
        List<Target> targets = new ArrayList<>();
        try (Stores stores = new Stores(pipeline); MongoClient mongo = MongoClients.create(pipeline.mongodb.uri)) {
            stores.reset(repository());
            for (Map.Entry<SearchOptions.Engine, String> engine : engines.entrySet()) {
                targets.add(target(engine.getKey(), engine.getValue(), mongo));
            }
            importOnce(stores, documents.size());
            for (int round = 1; round <= rounds; round++) {
                List<Target> order = new ArrayList<>(targets);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Target target : order) {
                    System.out.printf(Locale.ROOT, "round %d of %d: %s%n", round, rounds, target.name());
                    measure(target, round, documents, stores, customers);
                }
            }
            stores.reset(repository());
        } finally {
            jobs.close();
            for (Target target : targets) {
                // Every engine's indices go, whatever failed: one failure does not keep the others'.
                try (Stores stores = target.stores(); SearchEngine search = target.search()) {
                    search.indices(target.options().indices()).delete(repository());
                    search.indices(rawIndices()).delete(repository());
                } catch (Exception e) {
                    System.err.printf(Locale.ROOT, "  could not delete %s's indices of %s: %s%n", target.name(),
                            repository(), e.getMessage());
                }
            }
        }
        write(documents.size());
        return 0;
    }

    private Target target(SearchOptions.Engine engine, String url, MongoClient mongo) throws Exception {
        PipelineOptions options = Options.parseWithOverrides(new PipelineOptions(),
                Options.with(pipeline, "--search-url", url, "--search-engine", engine.name()));
        // Connections for 16 users and more, to the one node.
        SearchEngine search = SearchEngines.open(options.search, SearchTuning.DEFAULT.withMaxConnections(64));
        try {
            versions.put(engine.name(), search.version());
            search.indices(options.indices()).delete(repository());
            search.indices(rawIndices()).delete(repository());
        } catch (Exception e) {
            search.close();
            throw e;
        }
        Commands commands = new Commands(flink, session.jar, MongoRepositories.sharing(mongo, pipeline.mongodb.database),
                search, options.indices(), Options.arguments(options), options.kafka.clientProperties());
        return new Target(engine.name(), options, new Stores(options), search, commands);
    }

    /** Generates the run and imports it into MongoDB once: every engine's index job reads its imported topic. */
    private void importOnce(Stores stores, long n) throws Exception {
        flink.awaitState(run(Step.GENERATE, generateArguments()), "FINISHED", Duration.ofMinutes(10));
        String importJob = run(Step.IMPORT, Options.with(pipeline, "--group-id", "bench-engines-import-" + runId));
        try (CommittedRecordCount deadLetters = stores.committedRecordCount(pipeline.deadletterTopic())) {
            Through imported = new Through("import", new Progress(n), () -> stores.mongoEstimatedCount(repository()),
                    deadLetters::count);
            polling.untilThrough(List.of(imported), () -> { });
            if (imported.deadLettered() > 0) {
                throw new IllegalStateException("the import dead-lettered " + imported.deadLettered()
                        + " documents: the engines would be measured on fewer than the run's");
            }
        }
        // Stopping (not cancelling) commits the last Kafka transaction: the index jobs read all of it.
        flink.stopWithSavepoint(importJob, CANCEL_TIMEOUT);
        System.out.printf(Locale.ROOT, "imported %,d documents%n", n);
    }

    /** One engine's turn in a round: its index job and loop, its reindex, its searches. */
    private void measure(Target target, int round, List<ImportedEvent> documents, Stores stores, String[] customers)
            throws Exception {
        long n = documents.size();
        List<Measure> pair = new ArrayList<>(List.of(() -> {
            target.search().indices(rawIndices()).delete(repository());
            record(target, RAW_BULK, BaselineLoop.rawBulk(polling, target.name() + " " + RAW_BULK,
                    target.search().indices(rawIndices()), documents, () -> count(target, rawIndices())).progress());
            // Its index is not searched: it would take the memory and the merges of the job's and the searches'.
            target.search().indices(rawIndices()).delete(repository());
        }, () -> indexJob(target, round, n, stores)));
        if (round % 2 == 0) {
            Collections.reverse(pair);
        }
        for (Measure measure : pair) {
            quiet.settle();
            measure.run();
        }
        quiet.settle();
        ReindexMeasure reindex = ReindexMeasure.run(target.commands(), repository(), n, RANGE);
        long indexed = target.stores().elasticsearchCount(repository());
        if (indexed != n) {
            throw new IllegalStateException("after the reindex " + target.name() + " holds " + indexed + " of " + n);
        }
        record(target, REINDEX, reindex.progress());
        sample(target, FINISH, reindex.finishSeconds());
        quiet.settle();
        for (String query : QUERIES) {
            for (int users : searchLoad.userCounts) {
                QuerySamples cell = searches.computeIfAbsent(target.name(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(query + "/" + users, k -> new QuerySamples());
                double rate = cell.add(target.search().reader(), target.options().indices().of(repository()), true,
                        query.equals("aggregations"), users, customers, searchLoad, 1, round);
                System.out.printf(Locale.ROOT, "  search %-12s %2d users %,8.0f q/s%n", query, users, rate);
            }
        }
    }

    /** The index job from the imported topic into the engine's (emptied) repository index, until every document is through. */
    private void indexJob(Target target, int round, long n, Stores stores) throws Exception {
        target.search().indices(target.options().indices()).delete(repository());
        String deadLetterTopic = pipeline.deadletterTopic() + ".engines-" + target.name();
        stores.deleteTopics(deadLetterTopic);
        String id = run(Step.INDEX, Options.with(target.options(), "--index-group-id",
                "bench-engines-" + target.name() + "-" + round + "-" + runId, "--deadletter-topic", deadLetterTopic));
        try (CommittedRecordCount deadLetters = stores.committedRecordCount(deadLetterTopic)) {
            Through through = new Through(target.name() + " " + INDEX_JOB, new Progress(n),
                    () -> count(target, target.options().indices()), deadLetters::count);
            polling.untilThrough(List.of(through), () -> { });
            flink.cancel(id, CANCEL_TIMEOUT);
            record(target, INDEX_JOB, through.progress());
            sample(target, DEAD_LETTERED, through.deadLettered());
        }
    }

    private interface Measure {
        void run() throws Exception;
    }

    private String run(Step step, List<String> args) throws Exception {
        return jobs.run(step, args);
    }

    private String repository() {
        return settings.repository();
    }

    /** The raw loop's indices, apart from the repository's. */
    private IndexNames rawIndices() {
        return new IndexNames(repository() + "-raw-");
    }

    private long count(Target target, IndexNames indices) {
        return Counts.orFail(() -> target.stores().searchableCount(indices, repository()));
    }

    private void record(Target target, String what, Progress progress) {
        sample(target, what, progress.rate());
        sample(target, what + SUSTAINED, progress.sustainedRate());
        System.out.printf(Locale.ROOT, "  %-16s %,10.0f docs/s, sustained %,10.0f docs/s (%s)%n", what, progress.rate(),
                progress.sustainedRate(), progress.describe());
    }

    private void sample(Target target, String what, double value) {
        samples.computeIfAbsent(target.name(), k -> new LinkedHashMap<>()).computeIfAbsent(what, k -> new ArrayList<>()).add(value);
    }

    private List<Double> values(String engine, String what) {
        return samples.get(engine).get(what);
    }

    private void write(long documents) throws Exception {
        List<String> names = new ArrayList<>(versions.keySet());
        String baseline = names.get(0);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("date", Report.date());
        figures.put("machine", Report.machine());
        figures.put("documents", documents);
        figures.put("customers", settings.customers());
        figures.put("rounds", rounds);
        figures.put("engines", versions);
        figures.put("samples per round", samples);
        Map<String, Object> searchFigures = new LinkedHashMap<>();
        searches.forEach((engine, cells) -> cells.forEach((cell, measured) -> searchFigures.put(engine + " " + cell,
                figures(measured))));
        figures.put("searches", searchFigures);

        List<String> lines = new ArrayList<>(List.of("# Search engines, same run", "",
                "Measured " + figures.get("date") + " on " + figures.get("machine") + ", the engines side by side; "
                        + String.format(Locale.ROOT, "%,d", documents) + " documents (" + settings.customers()
                        + " customers), imported once into MongoDB; job parallelism " + pipeline.parallelism + ". "
                        + "In each of " + rounds + " rounds every engine takes its turn (the first column's first in "
                        + "odd rounds): its raw `_bulk` loop and its index job one after the other (the loop first in odd "
                        + "rounds), both reading the same imported documents, then a reindex through its command "
                        + "(ranges of " + RANGE + "), then the searches; each measure starts once the machine is quiet.", "",
                "Docs/s are medians of the rounds, *sustained* between 50% and 90% of the documents (whole run in "
                        + "brackets); a ratio is the median of the rounds' ratios, with their range. A search is a "
                        + "customer's 20 newest documents, routed to the customer's shard as the API sends it (without "
                        + "its permission filter), without or with aggregations (types, months); per round "
                        + searchLoad.warmup.toSeconds() + " s of warm-up, then " + searchLoad.measure.toSeconds() + " s of back-to-back "
                        + "queries per user, customers drawn at random; figures over every round.", ""));
        StringBuilder header = new StringBuilder("| measure |");
        StringBuilder rule = new StringBuilder("|---|");
        for (String name : names) {
            header.append(' ').append(title(name)).append(' ').append(versions.get(name)).append(" |");
            rule.append("---|");
        }
        for (String name : names.subList(1, names.size())) {
            header.append(' ').append(title(name)).append(" / ").append(title(baseline)).append(" (range) |");
            rule.append("---|");
        }
        lines.add(header.toString());
        lines.add(rule.toString());
        lines.add(rateRow(names, RAW_BULK + ", docs/s", RAW_BULK));
        lines.add(rateRow(names, INDEX_JOB + ", docs/s", INDEX_JOB));
        StringBuilder jobVsLoop = new StringBuilder("| index job / the same engine's raw `_bulk` loop, sustained (range) |");
        for (String name : names) {
            jobVsLoop.append(' ').append(ratioWithRange(ratios(values(name, INDEX_JOB + SUSTAINED),
                    values(name, RAW_BULK + SUSTAINED)))).append(" |");
        }
        lines.add(jobVsLoop.append(" |".repeat(names.size() - 1)).toString());
        lines.add(plainRow(names, DEAD_LETTERED, DEAD_LETTERED, "%,.0f"));
        lines.add(rateRow(names, REINDEX + ", docs/s", REINDEX));
        lines.add(plainRow(names, FINISH + " (catch-up, settings, refresh, alias)", FINISH, "%.1f"));
        for (String query : QUERIES) {
            for (int users : searchLoad.userCounts) {
                String cell = query + "/" + users;
                String what = "search, " + query + ", " + users + (users == 1 ? " user" : " users");
                lines.add(searchRow(names, what + ": queries/s", cell, QuerySamples::throughput, "%,.0f"));
                lines.add(searchRow(names, what + ": p95 ms", cell, measured -> measured.percentile(95), "%.1f"));
            }
        }
        long errors = searches.values().stream().flatMap(cells -> cells.values().stream())
                .mapToLong(QuerySamples::errors).sum();
        lines.add("");
        lines.add(String.format(Locale.ROOT, "Searches that failed: %d.", errors));
        lines.add("");
        String table = String.join("\n", lines);
        Report.write(results.folder, "engines", figures, table);
        System.out.println(table);
    }

    /** A search cell's figures, in a fixed order. */
    private static Map<String, Object> figures(QuerySamples measured) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("queries", measured.queries());
        figures.put("seconds", measured.seconds());
        figures.put("errors", measured.errors());
        figures.put("p50Ms", measured.percentile(50));
        figures.put("p95Ms", measured.percentile(95));
        figures.put("p99Ms", measured.percentile(99));
        return figures;
    }

    /** {@code sustained (whole run)} per engine, then each engine's sustained ratio to the baseline's. */
    private String rateRow(List<String> names, String label, String what) {
        StringBuilder row = new StringBuilder("| " + label + ", sustained (whole run) |");
        for (String name : names) {
            row.append(String.format(Locale.ROOT, " %,.0f (%,.0f) |", median(values(name, what + SUSTAINED)),
                    median(values(name, what))));
        }
        for (String name : names.subList(1, names.size())) {
            row.append(' ').append(ratioWithRange(ratios(values(name, what + SUSTAINED),
                    values(names.get(0), what + SUSTAINED)))).append(" |");
        }
        return row.toString();
    }

    private String plainRow(List<String> names, String label, String what, String format) {
        StringBuilder row = new StringBuilder("| " + label + " |");
        for (String name : names) {
            row.append(' ').append(String.format(Locale.ROOT, format, median(values(name, what)))).append(" |");
        }
        return row.append(" |".repeat(names.size() - 1)).toString();
    }

    private interface Figure {
        double of(QuerySamples cell);
    }

    private String searchRow(List<String> names, String label, String cell, Figure figure, String format) {
        StringBuilder row = new StringBuilder("| " + label + " |");
        for (String name : names) {
            row.append(' ').append(String.format(Locale.ROOT, format, figure.of(searches.get(name).get(cell)))).append(" |");
        }
        double baseline = figure.of(searches.get(names.get(0)).get(cell));
        for (String name : names.subList(1, names.size())) {
            row.append(String.format(Locale.ROOT, " %.2f× |", figure.of(searches.get(name).get(cell)) / baseline));
        }
        return row.toString();
    }

    private static String title(String engine) {
        return engine.equals("opensearch") ? "OpenSearch" : "Elasticsearch";
    }
}
