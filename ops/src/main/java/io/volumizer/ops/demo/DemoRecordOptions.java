package io.volumizer.ops.demo;

import java.nio.file.Path;

import io.volumizer.ops.services.LocalServices;
import picocli.CommandLine.Option;

/** {@code --record} (a picocli mixin of the demo, which writes it, and of the load tests, which read it). */
public final class DemoRecordOptions {

    @Option(names = "--record", defaultValue = LocalServices.STATE_FOLDER + "/demo.env", description = "The file of what "
            + "the demo recorded (DemoRecord), for the load tests' feeders and for resuming its import (default: ${DEFAULT-VALUE}).")
    public Path file;
}
