package io.volumizer.benchmarks.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
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

    /**
     * The CSV job's limit in its scenarios: slow enough that the faults, which wait for a share of the documents in
     * MongoDB, find it mid-file (a TaskManager killed under a split half read, a broker gone under a transaction).
     */
    static final double CSV_DOCS_PER_SECOND = 1500;

    /** The share of the statements the bad-input scenario replaces with bad records. */
    static final double BAD_SHARE = 0.01;
    /** The share of the statements the fuzzing run replaces. */
    static final double FUZZ_SHARE = 0.02;

    @Option(names = "--scenarios", split = ",", converter = Scenario.ById.class, completionCandidates = Scenario.ById.class,
            description = "Scenarios to run (default: all of them): ${COMPLETION-CANDIDATES}.")
    List<Scenario> scenarios;

    @Option(names = "--outage", defaultValue = "PT60S", description = "How long a service stays down or saturated (default: ${DEFAULT-VALUE}).")
    Duration outage;

    @Option(names = "--fault-at", defaultValue = "0.25", description = "Share of the documents imported when a fault starts (default: ${DEFAULT-VALUE}).")
    double faultAt;

    @Option(names = "--stalled-after", defaultValue = "PT5M", description = "How long a scenario's counts may stand "
            + "still, short of every document through, before it audits what arrived (default: ${DEFAULT-VALUE}).")
    Duration stalledAfter;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--report", defaultValue = "reliability", description = "The results files' name: <report>.json "
            + "and <report>.md in the results folder (default: ${DEFAULT-VALUE}).")
    String report;

    final String runId = Long.toString(System.currentTimeMillis(), 36);
    /** The checkout's services, found when the benchmark runs (the command line is built anywhere). */
    LocalServices services;
    FlinkSessionClient flink;
    String jarId;
    /** The pipeline's search engine, as its cluster says: the local service its faults act on, and its version. */
    String searchService;
    String searchVersion;

    @Override
    protected int run(GeneratorSettings settings) throws Exception {
        services = LocalServices.ofThisCheckout();
        flink = session.client();
        jarId = flink.uploadJar(session.jar);
        try (SearchEngine search = SearchEngines.open(pipeline.search)) {
            searchVersion = search.version();
            searchService = search.name();
        }
        List<DocumentEvent> generated = new BankGenerator(settings).documents();
        List<Row> rows = new ArrayList<>();
        for (Scenario scenario : scenarios == null ? Scenario.ALL : scenarios) {
            System.out.printf(Locale.ROOT, "%s: %s, %s%n", scenario.id(), scenario.fault().description(outage),
                    scenario.topology());
            Row row;
            try {
                row = new ScenarioRun(this, scenario, generated, settings).run();
            } catch (Exception e) {
                row = Row.failed(scenario, outage, generated.size(), e);
            }
            rows.add(row);
            System.out.println("  " + row.summary());
            ReliabilityReport.write(this, rows, settings, generated.size());
        }
        return rows.stream().allMatch(Row::passed) ? 0 : 1;
    }

    /** A blob store (a folder) of {@code run}'s: the jobs' TaskManager runs on this machine. */
    static Path blobStore(String run) {
        try {
            return Files.createTempDirectory(run + "-blobs");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> generateArguments(PipelineOptions options) {
        List<String> args = Options.with(options);
        args.addAll(Options.arguments(run));
        return args;
    }

}
