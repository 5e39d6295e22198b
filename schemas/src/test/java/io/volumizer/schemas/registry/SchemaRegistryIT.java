package io.volumizer.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

/** Against the local registry started by {@code bin/volumizer up} (Apicurio, Confluent-compatible API). */
class SchemaRegistryIT {

    private static final String REGISTRY = System.getProperty("volumizer.registry.url");

    private final SchemaRegistryClient client = new SchemaRegistryClient(REGISTRY);
    private final String subject = "it-" + UUID.randomUUID() + "-value";

    private static final Schema V1 = SchemaBuilder.record("Customer").namespace("io.volumizer.it").fields()
            .requiredString("id").requiredString("name").endRecord();

    @Test
    void registersASchemaAndFetchesItById() {
        int id = client.register(subject, V1);

        Schema fetched = new SchemaRegistryClient(REGISTRY).schemaById(id);

        assertThat(fetched).isEqualTo(V1);
        assertThat(client.register(subject, V1)).as("registering again gives the same id").isEqualTo(id);
    }

    @Test
    void backwardCompatibilityAcceptsAnAddedFieldWithDefaultAndRejectsOneWithout() {
        client.setCompatibility(subject, "BACKWARD");
        client.register(subject, V1);
        Schema withDefault = SchemaBuilder.record("Customer").namespace("io.volumizer.it").fields()
                .requiredString("id").requiredString("name").name("email").type().stringType().stringDefault("")
                .endRecord();
        Schema withoutDefault = SchemaBuilder.record("Customer").namespace("io.volumizer.it").fields()
                .requiredString("id").requiredString("name").requiredLong("born").endRecord();

        assertThat(client.register(subject, withDefault)).isPositive();
        assertThatThrownBy(() -> client.register(subject, withoutDefault))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(409));
    }

    @Test
    void unknownIdIsA404() {
        assertThatThrownBy(() -> client.schemaById(Integer.MAX_VALUE - 7))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void unreachableRegistryIsAClearError() {
        SchemaRegistryClient nowhere = new SchemaRegistryClient("http://127.0.0.1:1/apis/ccompat/v7");
        assertThatThrownBy(() -> nowhere.schemaById(1))
                .isInstanceOf(SchemaRegistryException.class).hasMessageContaining("unreachable");
    }
}
