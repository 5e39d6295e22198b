package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import io.volumizer.options.Options;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.options.endpoints.KafkaOptions;
import io.volumizer.options.pipeline.CheckpointOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the smoke job. */
@Command(name = "smoke", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Counts a generated sequence per key in keyed state and writes the running counts to Kafka.",
        footer = {"%nExample:", "  bin/volumizer job submit smoke"})
public final class SmokeOptions implements Options.Validated {

    @Mixin public KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--topic", defaultValue = TopicNames.SMOKE, description = "Topic of the running counts (default: ${DEFAULT-VALUE}).")
    public String topic;

    @Option(names = "--records", defaultValue = "1000000", description = "Records to generate; 0 runs until stopped (default: ${DEFAULT-VALUE}).")
    public long records;

    @Option(names = "--records-per-second", defaultValue = "0", description = "Rate cap; 0 is uncapped (default: ${DEFAULT-VALUE}).")
    public double recordsPerSecond;

    @Option(names = "--keys", defaultValue = "8", description = "Distinct keys the sequence is counted by (default: ${DEFAULT-VALUE}).")
    public int keys;

    @Mixin public CheckpointOptions checkpoints = new CheckpointOptions();

    @Override
    public void validate() {
        require(records >= 0, "--records must be 0 (unbounded) or positive, was " + records);
        require(recordsPerSecond >= 0, "--records-per-second must be 0 (uncapped) or positive, was " + recordsPerSecond);
        require(keys >= 1, "--keys must be at least 1, was " + keys);
        require(!topic.isBlank(), "--topic must not be blank");
        checkpoints.validate();
    }

    public long recordsOrUnbounded() {
        return records == 0 ? Long.MAX_VALUE : records;
    }
}
