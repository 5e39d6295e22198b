package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/** Where the Confluent-compatible schema registry is (a picocli mixin). */
public final class RegistryOptions {

    @Option(names = "--registry-url", defaultValue = "${sys:volumizer.registry.url}",
            description = "Confluent-compatible schema registry (default: the local registry's, from the endpoints file of "
                    + "bin/volumizer up).")
    public String url;
}
