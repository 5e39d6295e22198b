package io.volumizer.options.endpoints;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import picocli.CommandLine.Option;

/**
 * Where Kafka is and how to reach it (a picocli mixin): the brokers, client properties such as the security
 * protocol (MSK with TLS or SASL), and the SASL login, which is a secret and therefore never an option: it is read
 * from the environment ({@value #SASL_JAAS_CONFIG_ENV}, set from a Kubernetes Secret by the chart).
 */
public final class KafkaOptions {

    /** The environment variable holding {@code sasl.jaas.config}, if the brokers want a SASL login. */
    public static final String SASL_JAAS_CONFIG_ENV = "VOLUMIZER_KAFKA_SASL_JAAS_CONFIG";

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka brokers (default: ${DEFAULT-VALUE}).")
    public String bootstrapServers;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE", description = "A property of every Kafka client "
            + "(security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512...), repeatable; the SASL login comes from $"
            + SASL_JAAS_CONFIG_ENV + ", never from an option.")
    public Map<String, String> properties = new LinkedHashMap<>();

    /** What every Kafka client of ours is configured with: the brokers, --kafka-property, the SASL login. */
    public Properties clientProperties() {
        Properties client = new Properties();
        client.putAll(properties);
        client.put("bootstrap.servers", bootstrapServers);
        String login = System.getenv(SASL_JAAS_CONFIG_ENV);
        if (login != null && !login.isBlank()) {
            client.put("sasl.jaas.config", login);
        }
        return client;
    }
}
