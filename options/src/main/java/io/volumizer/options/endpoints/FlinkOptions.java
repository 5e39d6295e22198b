package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/** Where the Flink cluster's REST API (and Web UI) is (a picocli mixin). */
public final class FlinkOptions {

    @Option(names = "--flink-rest", defaultValue = "http://127.0.0.1:8081", description = "Flink REST endpoint (default: ${DEFAULT-VALUE}).")
    public String rest;
}
