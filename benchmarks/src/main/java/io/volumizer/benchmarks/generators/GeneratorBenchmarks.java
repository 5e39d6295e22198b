package io.volumizer.benchmarks.generators;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code bin/volumizer bench generators}: this package's JMH suite with one thread, then with one per core, each
 * into its JSON file ({@code generators-1-thread.json}, {@code generators-<n>-threads.json}), then the markdown
 * table of both ({@code generators.md}, by {@code benchmarks/scripts/jmh_report.py}).
 */
public final class GeneratorBenchmarks {

    private GeneratorBenchmarks() {
    }

    /** Arguments: the results folder, the report script. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: GeneratorBenchmarks <results folder> <jmh_report.py>");
            System.exit(2);
        }
        Path results = Path.of(args[0]);
        int cores = Runtime.getRuntime().availableProcessors();
        List<String> report = new ArrayList<>(List.of("python3", args[1], "Generator benchmarks",
                results.resolve("generators.md").toString(), results.resolve("generators-targets.json").toString()));
        for (int threads : new int[] {1, cores}) {
            Path file = results.resolve("generators-" + threads + (threads == 1 ? "-thread" : "-threads") + ".json");
            new Runner(new OptionsBuilder().include(GeneratorBenchmarks.class.getPackageName()).forks(1)
                    .warmupIterations(2).warmupTime(TimeValue.seconds(3)).measurementIterations(4)
                    .measurementTime(TimeValue.seconds(4)).threads(threads)
                    .resultFormat(ResultFormatType.JSON).result(file.toString()).build()).run();
            report.add(file.toString());
        }
        System.exit(new ProcessBuilder(report).inheritIO().start().waitFor());
    }
}
