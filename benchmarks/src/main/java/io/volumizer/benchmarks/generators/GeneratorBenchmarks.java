package io.volumizer.benchmarks.generators;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.volumizer.options.ResultsOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/volumizer bench generators}: this package's JMH suite with one thread, then with one per core, each
 * into its JSON file ({@code generators-1-thread.json}, {@code generators-<n>-threads.json}), then the markdown
 * table of both ({@code generators.md}, by {@code benchmarks/scripts/jmh_report.py}).
 */
@Command(name = "generators", mixinStandardHelpOptions = true,
        description = "Runs the JMH suite of the generators with one thread, then one per core; writes generators.md.")
public final class GeneratorBenchmarks implements Callable<Integer> {

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--report-script", defaultValue = "benchmarks/scripts/jmh_report.py",
            description = "The script that writes the table of the JMH results (default: ${DEFAULT-VALUE}).")
    Path reportScript;

    @Override
    public Integer call() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        List<String> report = new ArrayList<>(List.of("python3", reportScript.toString(), "Generator benchmarks",
                results.folder.resolve("generators.md").toString(), results.folder.resolve("generators-targets.json").toString()));
        for (int threads : new int[] {1, cores}) {
            Path file = results.folder.resolve("generators-" + threads + (threads == 1 ? "-thread" : "-threads") + ".json");
            new Runner(new OptionsBuilder().include(GeneratorBenchmarks.class.getPackageName()).forks(1)
                    .warmupIterations(2).warmupTime(TimeValue.seconds(3)).measurementIterations(4)
                    .measurementTime(TimeValue.seconds(4)).threads(threads)
                    .resultFormat(ResultFormatType.JSON).result(file.toString()).build()).run();
            report.add(file.toString());
        }
        return new ProcessBuilder(report).inheritIO().start().waitFor();
    }
}
