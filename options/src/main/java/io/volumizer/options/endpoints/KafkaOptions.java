package io.volumizer.options.endpoints;

import picocli.CommandLine.Option;

/** Where Kafka is (a picocli mixin). */
public final class KafkaOptions {

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka brokers (default: ${DEFAULT-VALUE}).")
    public String bootstrapServers;
}
