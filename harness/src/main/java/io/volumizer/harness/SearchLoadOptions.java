package io.volumizer.harness;

import java.time.Duration;
import java.util.List;

import picocli.CommandLine.Option;

/** How the benchmarks' searches are measured ({@link CustomerQueries}): users, warm-up and measure of each cell. */
public final class SearchLoadOptions {

    @Option(names = "--users", split = ",", defaultValue = "1,16", description = "Concurrent users of each search cell (default: ${DEFAULT-VALUE}).")
    public List<Integer> userCounts;

    @Option(names = "--warmup", defaultValue = "PT3S", description = "Queries before each cell's measure, for its caches (default: ${DEFAULT-VALUE}).")
    public Duration warmup;

    @Option(names = "--measure", defaultValue = "PT10S", description = "How long each cell is measured in a round (default: ${DEFAULT-VALUE}).")
    public Duration measure;

    /** @throws IllegalArgumentException unless every number of users is positive */
    public void validate() {
        if (userCounts.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--users must be positive, were " + userCounts);
        }
    }
}
