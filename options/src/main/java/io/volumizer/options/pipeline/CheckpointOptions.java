package io.volumizer.options.pipeline;

import java.time.Duration;

import io.volumizer.options.Options;
import picocli.CommandLine.Option;

/** How often a job checkpoints (a picocli mixin of every job). */
public final class CheckpointOptions {

    @Option(names = "--checkpoint-interval", defaultValue = "PT5S",
            description = "ISO-8601 duration between checkpoints (default: ${DEFAULT-VALUE}).")
    public Duration interval;

    public void validate() {
        Options.require(!interval.isNegative() && !interval.isZero(), "--checkpoint-interval must be positive, was " + interval);
    }
}
