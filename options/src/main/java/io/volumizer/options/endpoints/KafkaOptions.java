package io.volumizer.options.endpoints;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UseDefaultConverter;

/**
 * Where Kafka is and how to reach it (a picocli mixin): the brokers and client properties such as the security
 * protocol (MSK with TLS or SASL). A secret property (the SASL login, a key store's password) is never an option,
 * since a job's arguments are shown in the Flink Web UI: each process reads it from its own environment, as
 * {@link #secretEnvironmentVariable} names it ({@value #SASL_JAAS_CONFIG_ENV} for the SASL login), set from a
 * Kubernetes Secret by the chart.
 */
public final class KafkaOptions {

    /** The environment variable holding {@code sasl.jaas.config}, if the brokers want a SASL login. */
    public static final String SASL_JAAS_CONFIG_ENV = "VOLUMIZER_KAFKA_SASL_JAAS_CONFIG";
    private static final String SECRET_ENV_PREFIX = "VOLUMIZER_KAFKA_";
    /** Words of the Kafka clients' property names that hold secrets (ssl.key.password, sasl.jaas.config...). */
    private static final List<String> SECRET_WORDS = List.of("password", "secret", "jaas", "credential", "ssl.keystore.key");

    @Option(names = "--bootstrap-servers", defaultValue = "${sys:volumizer.kafka.bootstrap}", description = "Kafka brokers (default: the local Kafka's, from "
            + "the endpoints file of bin/volumizer up).")
    public String bootstrapServers;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE", converter = {NotSecret.class, UseDefaultConverter.class},
            description = "A property of every Kafka client (security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512...), "
            + "repeatable; a secret one (a password, sasl.jaas.config) comes from the environment, never from an option: $"
            + SASL_JAAS_CONFIG_ENV + ", $" + SECRET_ENV_PREFIX + "SSL_KEY_PASSWORD...")
    public Map<String, String> properties = new LinkedHashMap<>();

    /** What every Kafka client of ours is configured with: the brokers, --kafka-property, the secrets. */
    public Properties clientProperties() {
        return clientProperties(System.getenv());
    }

    /** The client properties, with the secret ones {@code environment} holds. */
    Properties clientProperties(Map<String, String> environment) {
        Properties client = new Properties();
        client.putAll(properties);
        client.put("bootstrap.servers", Objects.requireNonNull(bootstrapServers,
                "no Kafka brokers: --bootstrap-servers, or the local Kafka of bin/volumizer up (its endpoints file)"));
        environment.forEach((variable, value) -> {
            if (variable.startsWith(SECRET_ENV_PREFIX) && !value.isBlank()) {
                String property = variable.substring(SECRET_ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                if (isSecret(property)) {
                    client.put(property, value);
                }
            }
        });
        return client;
    }

    /** Whether a Kafka client property holds a secret, by its name (case-insensitive). */
    public static boolean isSecret(String property) {
        String name = property.toLowerCase(Locale.ROOT);
        return SECRET_WORDS.stream().anyMatch(name::contains);
    }

    /**
     * The environment variable a secret property is read from: {@code ssl.key.password} from {@code
     * VOLUMIZER_KAFKA_SSL_KEY_PASSWORD} (Kafka's property names have dots, never underscores).
     */
    public static String secretEnvironmentVariable(String property) {
        return SECRET_ENV_PREFIX + property.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /** Refuses a secret property's name (picocli converts a map option's keys and values apart). */
    static final class NotSecret implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (isSecret(value)) {
                throw new TypeConversionException(value + " is a secret, and job arguments are shown in the Flink Web UI: "
                        + "set $" + secretEnvironmentVariable(value) + " in the environment instead");
            }
            return value;
        }
    }
}
