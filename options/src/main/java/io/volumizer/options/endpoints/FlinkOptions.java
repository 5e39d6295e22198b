package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/** Where the Flink cluster's REST API (and Web UI) is (a picocli mixin). */
public final class FlinkOptions {

    @Option(names = "--flink-rest", defaultValue = "${sys:volumizer.flink.rest}", description = "Flink REST endpoint (default: the local session "
            + "cluster's, from the endpoints file of bin/volumizer up).")
    public String rest;
}
