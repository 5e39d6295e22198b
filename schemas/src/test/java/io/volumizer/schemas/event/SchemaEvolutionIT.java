package io.volumizer.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

import io.volumizer.schemas.registry.SchemaRegistryClient;

/** The local registry (BACKWARD, as the topics' subjects are) takes the events' schemas over the ones before ACLs. */
class SchemaEvolutionIT {

    private final SchemaRegistryClient client = new SchemaRegistryClient(System.getProperty("volumizer.registry.url"));

    @Test
    void theEventsWithAclsAreRegisteredOverTheEventsBefore() {
        for (Schema current : List.of(DocumentEvent.getClassSchema(), ImportedEvent.getClassSchema())) {
            String subject = "it-" + UUID.randomUUID() + "-value";
            client.setCompatibility(subject, "BACKWARD");
            int before = client.register(subject, SchemaEvolutionTest.beforeAcls(current));

            assertThat(client.register(subject, current)).as(current.getName()).isPositive().isNotEqualTo(before);
        }
    }
}
