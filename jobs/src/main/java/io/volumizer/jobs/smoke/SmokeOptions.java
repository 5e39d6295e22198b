package io.volumizer.jobs.smoke;

import static io.volumizer.jobs.options.JobOptions.require;

import java.io.Serializable;
import java.time.Duration;

import io.volumizer.jobs.options.JobOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Options of {@link SmokeJob}. */
@Command(name = "smoke", mixinStandardHelpOptions = true,
        description = "Counts a generated sequence per key in keyed state and writes the running counts to Kafka.")
public final class SmokeOptions implements JobOptions.Validated, Serializable {

    private static final long serialVersionUID = 1L;

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka brokers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--topic", defaultValue = "volumizer-smoke", description = "Topic of the running counts (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--records", defaultValue = "1000000", description = "Records to generate; 0 runs until stopped (default: ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--records-per-second", defaultValue = "0", description = "Rate cap; 0 is uncapped (default: ${DEFAULT-VALUE}).")
    double recordsPerSecond;

    @Option(names = "--keys", defaultValue = "8", description = "Distinct keys the sequence is counted by (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--checkpoint-interval", defaultValue = "PT5S", description = "ISO-8601 duration between checkpoints (default: ${DEFAULT-VALUE}).")
    Duration checkpointInterval;

    @Override
    public void validate() {
        require(records >= 0, "--records must be 0 (unbounded) or positive, was " + records);
        require(recordsPerSecond >= 0, "--records-per-second must be 0 (uncapped) or positive, was " + recordsPerSecond);
        require(keys >= 1, "--keys must be at least 1, was " + keys);
        require(!checkpointInterval.isNegative() && !checkpointInterval.isZero(),
                "--checkpoint-interval must be positive, was " + checkpointInterval);
        require(!topic.isBlank(), "--topic must not be blank");
    }

    public long recordsOrUnbounded() {
        return records == 0 ? Long.MAX_VALUE : records;
    }
}
