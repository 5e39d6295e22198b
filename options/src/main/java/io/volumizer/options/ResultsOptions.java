package io.volumizer.options;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** {@code --results} (a picocli mixin of the benchmarks and the load tests): the folder their results files go to. */
public final class ResultsOptions {

    /** The benchmarks' results, kept in the repository beside their code. */
    public static final String BENCHMARKS = "benchmarks/results";
    /** The load tests' summaries and comparisons (Gatling's reports in its reports/ folder). */
    public static final String LOAD_TESTS = "loadtest/results";

    @Option(names = "--results", description = "Folder of the results files (default: ${DEFAULT-VALUE}).")
    public Path folder;

    /** @param defaultFolder the folder unless {@code --results} names another: {@link #BENCHMARKS} or {@link #LOAD_TESTS} */
    public ResultsOptions(String defaultFolder) {
        this.folder = Path.of(defaultFolder);
    }
}
