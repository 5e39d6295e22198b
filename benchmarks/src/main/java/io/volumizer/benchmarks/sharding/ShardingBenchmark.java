package io.volumizer.benchmarks.sharding;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.ops.results.Report;
import io.volumizer.harness.CustomerQueries;
import io.volumizer.harness.ImportedForm;
import io.volumizer.harness.QuerySamples;
import io.volumizer.harness.SearchLoadOptions;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.CheckOptions;
import io.volumizer.options.endpoints.IndexPrefixOptions;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchTuning;
import io.volumizer.stores.search.SearchWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Property sharding in the Alfresco lab's dimensions: one generated run indexed three times, by the index stage's
 * own writer, into repositories of 1, 3 and 11 shards routed by customer number; then a customer's query (a
 * simple one, and one with aggregations) at 1 and 16 concurrent users, sent to the customer's shard alone
 * (targeted: {@code routing=<customer number>}, as the API does) or to every shard (fan-out). Each cell is measured
 * in every round, the two modes of a pair in alternating order, and reports p50/p95/p99 and throughput over all
 * rounds; the baseline of every query and concurrency is the 1-shard fan-out of the same run.
 * Writes {@code sharding.json}, {@code sharding.md} and two charts ({@code sharding-throughput.png},
 * {@code sharding-p95.png}).
 */
@Command(name = "sharding-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Indexes one generated run into repositories of 1, 3 and 11 shards routed by customer, then "
                + "measures a customer's queries sent to its shard and to every shard; writes sharding.json, "
                + "sharding.md and two charts.",
        footer = {"%nExample:", "  bin/volumizer bench sharding"})
public final class ShardingBenchmark implements Callable<Integer> {

    private static final int BATCH = 2000;
    private static final String REPOSITORY_PREFIX = "sharding-";

    @Mixin SearchOptions search = new SearchOptions();
    @Mixin IndexPrefixOptions indexPrefix = new IndexPrefixOptions();
    @Mixin GeneratorOptions run = new GeneratorOptions();

    @Option(names = "--shards", split = ",", defaultValue = "1,3,11", description = "Shard counts of the layouts (default: ${DEFAULT-VALUE}).")
    List<Integer> shardCounts;

    @Mixin SearchLoadOptions searchLoad = new SearchLoadOptions();

    @Option(names = "--rounds", defaultValue = "2", description = "Measures of every cell, in alternating order of the modes; "
            + "a cell's figures are over all of them (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--reuse", description = "Keep the layouts of an earlier run that hold every document of this one.")
    boolean reuse;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);
    @Mixin CheckOptions check = new CheckOptions();

    /** One cell of the table: a layout, a query, a concurrency and a mode, with what was measured. */
    record Cell(int shards, String query, int users, String mode, long queries, double seconds, double p50, double p95,
            double p99, int shardsAsked, long errors) {

        double throughput() {
            return queries / seconds;
        }
    }

    @Override
    public Integer call() throws Exception {
        System.setProperty("java.awt.headless", "true");
        GeneratorSettings settings = run.settings();
        search.validate();
        indexPrefix.validate();
        searchLoad.validate();
        if (shardCounts.stream().anyMatch(n -> n < 1) || rounds < 1) {
            throw new IllegalArgumentException("--shards and --rounds must be positive, were " + shardCounts + " and "
                    + rounds);
        }
        if (check.only) {
            return 0;
        }
        BankGenerator generator = new BankGenerator(settings);
        // Connections for 16 users and more, to the one node.
        try (SearchEngine engine = SearchEngines.open(search, SearchTuning.DEFAULT.withMaxConnections(64))) {
            IndexNames names = new IndexNames(indexPrefix.prefix);
            long documents = load(engine, names, generator);
            String[] customers = CustomerQueries.customers(generator);
            // Every cell once per round; the two modes of a pair alternate which goes first from one round to the
            // next, so that neither always runs on the caches the other warmed.
            Map<String, Samples> samples = new LinkedHashMap<>();
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
                List<String> modes = round % 2 == 1 ? List.of("fan-out", "targeted") : List.of("targeted", "fan-out");
                for (int shards : shardCounts) {
                    for (String query : List.of("simple", "aggregations")) {
                        for (int users : searchLoad.userCounts) {
                            for (String mode : modes) {
                                Samples cell = samples.computeIfAbsent(shards + "/" + query + "/" + users + "/" + mode,
                                        key -> new Samples(shards, query, users, mode));
                                double rate = cell.add(engine.reader(), names.of(repository(shards)), customers);
                                System.out.printf(Locale.ROOT, "%2d shards  %-12s %2d users  %-8s %,8.0f q/s%n", shards,
                                        query, users, mode, rate);
                            }
                        }
                    }
                }
            }
            List<Cell> cells = new ArrayList<>();
            for (int shards : shardCounts) {
                for (String query : List.of("simple", "aggregations")) {
                    for (int users : searchLoad.userCounts) {
                        for (String mode : List.of("fan-out", "targeted")) {
                            cells.add(samples.get(shards + "/" + query + "/" + users + "/" + mode).cell());
                        }
                    }
                }
            }
            write(settings, documents, cells);
        }
        return 0;
    }

    private static String repository(int shards) {
        return REPOSITORY_PREFIX + shards;
    }

    /**
     * Every layout holding the whole run: each filled like a reindex fills a generation (bulk-load settings, the
     * layout's own put back, the alias moved), all from one pass over the generator.
     */
    private long load(SearchEngine engine, IndexNames names, BankGenerator generator) throws IOException {
        long expected = generator.documentCount();
        Map<Integer, SearchIndices> indices = new LinkedHashMap<>();
        Map<Integer, IndexLayout> layouts = new LinkedHashMap<>();
        for (int shards : shardCounts) {
            layouts.put(shards, new IndexLayout(shards, 0, null, null, BankGenerator.CUSTOMER_NUMBER, IndexProfile.METADATA));
            indices.put(shards, engine.indices(names, Map.of(repository(shards), layouts.get(shards))));
        }
        if (reuse && allHold(engine.reader(), indices, names, expected)) {
            System.out.printf(Locale.ROOT, "reusing layouts of %,d documents%n", expected);
            return expected;
        }
        engine.indices(names).installTemplate();
        Map<Integer, String> generations = new LinkedHashMap<>();
        Map<Integer, SearchWriter> stores = new LinkedHashMap<>();
        // The documents name the run's repository: their routing is looked up by it.
        String runRepository = generator.settings().repository();
        for (int shards : shardCounts) {
            indices.get(shards).delete(repository(shards));
            generations.put(shards, indices.get(shards).createForReindex(repository(shards)));
            stores.put(shards, engine.indices(names, Map.of(runRepository, layouts.get(shards))).writer(Backoff.DEFAULT)
                    .into(generations.get(shards)));
        }
        ImportedForm form = new ImportedForm();
        List<ImportedEvent> batch = new ArrayList<>(BATCH);
        long written = 0;
        long started = System.nanoTime();
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if (document != null) {
                batch.add(form.of(document));
            }
            if (batch.size() == BATCH || index == generator.indexSpace() - 1 && !batch.isEmpty()) {
                for (SearchWriter store : stores.values()) {
                    BulkResult<ImportedEvent> result = store.write(batch);
                    if (!result.failed().isEmpty()) {
                        throw new IllegalStateException("Elasticsearch refused " + result.failed().size()
                                + " documents, the first: " + result.failed().get(0).reason());
                    }
                }
                written += batch.size();
                batch.clear();
                if (written % (BATCH * 50) == 0) {
                    System.out.printf(Locale.ROOT, "indexed %,d of %,d documents into %d layouts (%,.0f docs/s per layout)%n",
                            written, expected, shardCounts.size(), written / ((System.nanoTime() - started) / 1e9));
                }
            }
        }
        for (int shards : shardCounts) {
            indices.get(shards).finishLoad(repository(shards), generations.get(shards));
            indices.get(shards).swap(repository(shards), generations.get(shards));
        }
        if (!allHold(engine.reader(), indices, names, expected)) {
            throw new IllegalStateException("a layout does not hold the " + expected + " documents written");
        }
        System.out.printf(Locale.ROOT, "indexed %,d documents into each of %d layouts in %.0f s%n", written,
                shardCounts.size(), (System.nanoTime() - started) / 1e9);
        return written;
    }

    private boolean allHold(SearchReader reader, Map<Integer, SearchIndices> indices, IndexNames names, long expected)
            throws IOException {
        for (Map.Entry<Integer, SearchIndices> layout : indices.entrySet()) {
            String alias = names.of(repository(layout.getKey()));
            if (layout.getValue().current(repository(layout.getKey())).isEmpty()
                    || reader.count(List.of(alias), null) != expected) {
                return false;
            }
        }
        return true;
    }

    /** One cell of the table as the rounds measure it. */
    private final class Samples {
        final int shards;
        final String query;
        final int users;
        final String mode;
        final QuerySamples measured = new QuerySamples();

        Samples(int shards, String query, int users, String mode) {
            this.shards = shards;
            this.query = query;
            this.users = users;
            this.mode = mode;
        }

        /** Warms the cell up, then measures it once more; returns this round's queries per second. */
        double add(SearchReader reader, String alias, String[] customers) throws Exception {
            boolean targeted = mode.equals("targeted");
            return measured.add(reader, alias, targeted, query.equals("aggregations"), users, customers, searchLoad,
                    shardsAsked(), shards);
        }

        int shardsAsked() {
            return mode.equals("targeted") ? 1 : shards;
        }

        Cell cell() {
            return new Cell(shards, query, users, mode, measured.queries(), measured.seconds(), measured.percentile(50),
                    measured.percentile(95), measured.percentile(99), shardsAsked(), measured.errors());
        }
    }

    private void write(GeneratorSettings settings, long documents, List<Cell> cells) throws IOException {
        Files.createDirectories(results.folder);
        ObjectNode json = Report.JSON.createObjectNode();
        json.putObject("run").put("seed", settings.seed()).put("customers", settings.customers())
                .put("documents", documents).put("cores", Runtime.getRuntime().availableProcessors())
                .put("warmupSeconds", searchLoad.warmup.toSeconds())
                .put("measureSeconds", searchLoad.measure.toSeconds()).put("rounds", rounds);
        var rows = json.putArray("cells");
        for (Cell cell : cells) {
            Cell baseline = baseline(cells, cell);
            rows.addObject().put("shards", cell.shards()).put("query", cell.query()).put("users", cell.users())
                    .put("mode", cell.mode()).put("queries", cell.queries()).put("errors", cell.errors())
                    .put("queriesPerSecond", round(cell.throughput())).put("p50Ms", round(cell.p50()))
                    .put("p95Ms", round(cell.p95())).put("p99Ms", round(cell.p99())).put("shardsAsked", cell.shardsAsked())
                    .put("throughputVsBaseline", round(cell.throughput() / baseline.throughput()))
                    .put("p95VsBaseline", round(cell.p95() / baseline.p95()));
        }
        Report.write(results.folder, "sharding", json, ShardingReport.markdown(settings, documents, searchLoad.warmup,
                searchLoad.measure, rounds, cells));
        ShardingReport.charts(cells, results.folder.resolve("sharding-throughput.png"), results.folder.resolve("sharding-p95.png"));
        System.out.println("results: " + results.folder.resolve("sharding.md"));
    }

    /** The cell every other of the same query and concurrency is compared with: the first layout's fan-out. */
    static Cell baseline(List<Cell> cells, Cell of) {
        return cells.stream().filter(c -> c.query().equals(of.query()) && c.users() == of.users()
                && c.mode().equals("fan-out")).findFirst().orElseThrow();
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
