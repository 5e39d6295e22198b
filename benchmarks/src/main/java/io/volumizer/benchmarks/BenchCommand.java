package io.volumizer.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.volumizer.benchmarks.acl.AclBenchmark;
import io.volumizer.benchmarks.calibration.CalibrationBenchmark;
import io.volumizer.benchmarks.calibration.PlanVsPublished;
import io.volumizer.benchmarks.commands.CommandsBenchmark;
import io.volumizer.benchmarks.csv.CsvImportBenchmark;
import io.volumizer.benchmarks.engines.EnginesBenchmark;
import io.volumizer.benchmarks.generators.GeneratorBenchmarks;
import io.volumizer.benchmarks.pipeline.PipelineBenchmark;
import io.volumizer.benchmarks.reliability.ReliabilityBenchmark;
import io.volumizer.benchmarks.security.HostileClientsBenchmark;
import io.volumizer.benchmarks.security.SecurityBenchmark;
import io.volumizer.benchmarks.sharding.ShardingBenchmark;
import io.volumizer.benchmarks.text.TextAgreementBenchmark;
import io.volumizer.benchmarks.throttle.ThrottleBenchmark;
import io.volumizer.options.Failures;
import io.volumizer.options.ResultsOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench <suite>}: every benchmark runner, each a subcommand of the {@code volumizer} command line. A suite's
 * defaults (its repository, its size, the jobs' parallelism and checkpoints) are {@link #SUITE_DEFAULTS}; the local
 * services' endpoints, the jobs jar and the blob store are the command line's local defaults; what the command line
 * gives wins over both. What a suite needs of the machine before it runs is {@link #needs}: the launcher asks
 * ({@code bench --needs <suite>}) and does it (starts services, installs a tool, sizes the JVM's heap).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Runs a benchmark suite; results into "
        + "benchmarks/results/ unless --results names another folder.")
public final class BenchCommand implements Runnable {

    @Spec CommandSpec spec;

    @Option(names = "--needs", hidden = true, paramLabel = "SUITE", description = "Print what the suite needs of the "
            + "machine, one need a line: 'services' (more than the default ones), 'tools' (command:Debian package), "
            + "'heap' (the JVM's -Xmx), 'offline' (no service at all).")
    String needsOf;

    /**
     * What a suite needs beyond the default services: {@code text} reads PDFs with pdftotext and, like the
     * generators, no service; {@code engines} measures both search engines; the sharding runs hold 2 GB of
     * documents; {@code hostile} runs the API in the benchmark's JVM, with the heap the API has on its own
     * ({@code volumizer.api.heap}, API_HEAP of conf/volumizer.conf, from the endpoints file).
     */
    static List<String> needs(String suite) {
        String apiHeap = System.getProperty("volumizer.api.heap");
        return switch (suite) {
            case "", "-h", "--help", "generators", "plan-vs-published" -> List.of("offline"); // no service
            case "text" -> List.of("offline", "tools pdftotext:poppler-utils");
            case "engines" -> List.of("services elasticsearch opensearch");
            case "sharding" -> List.of("heap 2g");
            case "hostile" -> apiHeap == null ? List.of() : List.of("heap " + apiHeap);
            default -> List.of();
        };
    }

    /** What every suite that runs the pipeline's jobs on the session cluster runs them with. */
    private static final Map<String, String> JOBS = Map.of("--parallelism", "2", "--checkpoint-interval", "PT2S");

    /** A suite that runs the pipeline on a repository and topics of its own, of {@code customers}. */
    private static Map<String, String> onRepository(String repository, long customers, String... more) {
        Map<String, String> defaults = new java.util.HashMap<>(JOBS);
        defaults.putAll(Map.of("--repository", repository, "--topics-of", repository, "--customers", Long.toString(customers)));
        for (int i = 0; i < more.length; i += 2) {
            defaults.put(more[i], more[i + 1]);
        }
        return defaults;
    }

    /**
     * Each suite's defaults. The sizes: long enough that a measure's sustained window starts after a job's warm-up
     * (pipeline), or as small as the suite's question allows on two cores.
     */
    static final Map<String, Map<String, String>> SUITE_DEFAULTS = Map.ofEntries(
            Map.entry("pipeline", onRepository("bench", 4000, "--store-service", "mongodb")),
            Map.entry("throttle", onRepository("throttle", 600)),
            Map.entry("csv", onRepository("csvbench", 10000)),
            Map.entry("commands", onRepository("commands", 850, "--store-service", "mongodb")),
            Map.entry("acl", onRepository("acl", 7200)),
            Map.entry("calibrate", onRepository("calibration", 1000)),
            Map.entry("engines", onRepository("engines", 2000)),
            Map.entry("reliability", onRepository("reliability", 2000, "--topics-of", null)),
            Map.entry("fuzz", onRepository("reliability", 2000, "--topics-of", null, "--scenarios", "clean,fuzz",
                    "--report", "fuzz")),
            Map.entry("sharding", Map.of("--customers", "8000")),
            Map.entry("hostile", Map.of("--topics-of", "demo")));

    /** The runners by suite, with no defaults of the local services'. */
    public static CommandLine commandLine() {
        return commandLine(option -> null);
    }

    /**
     * The runners by suite; {@code fuzz} is the reliability benchmark's clean and fuzzed scenarios. {@code local}
     * gives the defaults of the local services (endpoints, jobs jar, blob store) under a suite's own.
     */
    public static CommandLine commandLine(IDefaultValueProvider local) {
        CommandLine bench = new CommandLine(new BenchCommand());
        Map<String, Object> suites = new java.util.LinkedHashMap<>();
        suites.put("generators", new GeneratorBenchmarks());
        suites.put("text", new TextAgreementBenchmark());
        suites.put("pipeline", new PipelineBenchmark());
        suites.put("reliability", new ReliabilityBenchmark());
        suites.put("fuzz", new ReliabilityBenchmark());
        suites.put("throttle", new ThrottleBenchmark());
        suites.put("csv", new CsvImportBenchmark());
        suites.put("commands", new CommandsBenchmark());
        suites.put("acl", new AclBenchmark());
        suites.put("calibrate", new CalibrationBenchmark());
        suites.put("plan-vs-published", new PlanVsPublished());
        suites.put("sharding", new ShardingBenchmark());
        suites.put("security", new SecurityBenchmark());
        suites.put("hostile", new HostileClientsBenchmark());
        suites.put("engines", new EnginesBenchmark());
        suites.forEach((suite, runner) -> bench.addSubcommand(suite, new CommandLine(runner)
                .setDefaultValueProvider(option -> defaultValue(suite, option, local))));
        // --needs names a suite: a subcommand's name taken as the option's value.
        return bench.setAllowSubcommandsAsOptionParameters(true).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Failures::oneLine);
    }

    /** A suite's own default, else the local one, else the option's; paths of the checkout under its root. */
    private static String defaultValue(String suite, ArgSpec arg, IDefaultValueProvider local) throws Exception {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String name = option.longestName();
        Map<String, String> defaults = SUITE_DEFAULTS.getOrDefault(suite, Map.of());
        if (defaults.containsKey(name)) {
            return defaults.get(name);
        }
        String localDefault = local.defaultValue(arg);
        if (localDefault != null) {
            return localDefault;
        }
        String root = System.getProperty("volumizer.root");
        if (root == null) {
            return null;
        }
        return switch (name) {
            case "--results" -> Path.of(root, ResultsOptions.BENCHMARKS).toString();
            case "--report-script" -> Path.of(root, option.defaultValue()).toString();
            default -> null;
        };
    }

    @Override
    public void run() {
        if (needsOf == null) {
            throw new ParameterException(spec.commandLine(), "Missing required subcommand: a suite");
        }
        needs(needsOf).forEach(spec.commandLine().getOut()::println);
    }
}
