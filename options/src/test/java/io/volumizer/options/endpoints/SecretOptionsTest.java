package io.volumizer.options.endpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.volumizer.options.Options;
import io.volumizer.options.Options.InvalidOptionsException;
import io.volumizer.options.steps.Step;

/** No secret reaches a job's arguments, which the Flink Web UI shows: secrets come from the environment. */
class SecretOptionsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required; | $VOLUMIZER_KAFKA_SASL_JAAS_CONFIG
            SASL.JAAS.CONFIG=x                                                                  | $VOLUMIZER_KAFKA_SASL_JAAS_CONFIG
            ssl.keystore.password=changeit                                                      | $VOLUMIZER_KAFKA_SSL_KEYSTORE_PASSWORD
            ssl.Key.Password=changeit                                                           | $VOLUMIZER_KAFKA_SSL_KEY_PASSWORD
            sasl.oauthbearer.client.secret=s                                                    | $VOLUMIZER_KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET
            """)
    void aKafkaPropertyNamingASecretIsRefusedPointingToTheEnvironment(String property, String variable) {
        assertThatThrownBy(() -> Step.IMPORT.parse(List.of("--kafka-property", property)))
                .isInstanceOf(InvalidOptionsException.class)
                .satisfies(e -> assertThat(((InvalidOptionsException) e).reason())
                        .contains("--kafka-property").contains(variable).doesNotContain("changeit"));
    }

    @Test
    void otherKafkaPropertiesAreArgumentsAsGiven() {
        Object options = Step.IMPORT.parse(List.of("--kafka-property", "security.protocol=SASL_SSL",
                "--kafka-property", "ssl.truststore.location=/etc/secrets/truststore.jks"));

        assertThat(Options.arguments(options))
                .containsSequence("--kafka-property", "security.protocol=SASL_SSL")
                .containsSequence("--kafka-property", "ssl.truststore.location=/etc/secrets/truststore.jks");
    }

    @Test
    void secretKafkaPropertiesAreReadFromTheEnvironmentByTheClient() {
        KafkaOptions kafka = Options.parse(new KafkaOptions(), "--bootstrap-servers", "127.0.0.1:9092",
                "--kafka-property", "security.protocol=SASL_SSL");

        var client = kafka.clientProperties(Map.of(
                KafkaOptions.SASL_JAAS_CONFIG_ENV, "login",
                KafkaOptions.secretEnvironmentVariable("ssl.key.password"), "changeit",
                "VOLUMIZER_KAFKA_ACKS", "0"));

        assertThat(client).containsEntry("sasl.jaas.config", "login").containsEntry("ssl.key.password", "changeit")
                .containsEntry("security.protocol", "SASL_SSL").doesNotContainKey("acks");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mongodb://reader:s3cret@db.example.com:27017/?authSource=admin",
            "mongodb+srv://reader:s3cret@cluster0.example.mongodb.net"})
    void anExplicitMongoDbUriWithAPasswordIsRefusedPointingToTheEnvironment(String uri) {
        assertThatThrownBy(() -> Step.IMPORT.parse(List.of("--mongodb-uri", uri)))
                .isInstanceOf(InvalidOptionsException.class)
                .satisfies(e -> assertThat(((InvalidOptionsException) e).reason())
                        .contains("--mongodb-uri").contains("$" + MongoOptions.URI_ENV).doesNotContain("s3cret"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mongodb://db.example.com:27017,db2.example.com:27017/?replicaSet=rs0",
            "mongodb://CN=client@db.example.com/?authMechanism=MONGODB-X509", "mongodb://127.0.0.1:27017/?appName=a:b@c"})
    void aMongoDbUriWithoutAPasswordIsAnArgument(String uri) {
        assertThat(Options.arguments(Step.IMPORT.parse(List.of("--mongodb-uri", uri)))).containsSequence("--mongodb-uri", uri);
    }
}
