package io.volumizer.options.pipeline;

import java.time.Duration;

import io.volumizer.options.Options;
import picocli.CommandLine.Option;

/** How often a job checkpoints, and how long a checkpoint may take (a picocli mixin of every job). */
public final class CheckpointOptions {

    @Option(names = "--checkpoint-interval", defaultValue = "PT5S",
            description = "ISO-8601 duration between checkpoints (default: ${DEFAULT-VALUE}).")
    public Duration interval;

    @Option(names = "--checkpoint-timeout", defaultValue = "PT10M",
            description = "ISO-8601 duration after which a checkpoint not complete expires (default: ${DEFAULT-VALUE}, Flink's).")
    public Duration timeout;

    public void validate() {
        Options.require(!interval.isNegative() && !interval.isZero(), "--checkpoint-interval must be positive, was " + interval);
        Options.require(!timeout.isNegative() && !timeout.isZero(), "--checkpoint-timeout must be positive, was " + timeout);
    }
}
