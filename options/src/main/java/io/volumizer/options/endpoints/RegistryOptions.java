package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/** Where the Confluent-compatible schema registry is (a picocli mixin). */
public final class RegistryOptions {

    @Option(names = "--registry-url", defaultValue = "http://127.0.0.1:8085/apis/ccompat/v7",
            description = "Confluent-compatible schema registry (default: ${DEFAULT-VALUE}).")
    public String url;
}
