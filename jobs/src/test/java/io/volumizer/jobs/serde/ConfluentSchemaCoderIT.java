package io.volumizer.jobs.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.apache.flink.formats.avro.RegistryAvroDeserializationSchema;
import org.apache.flink.formats.avro.RegistryAvroSerializationSchema;
import org.junit.jupiter.api.Test;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.registry.SchemaRegistryClient;

/** flink-avro's registry schemas with our coder, against the local registry, interchangeable with our codec. */
class ConfluentSchemaCoderIT {

    private static final String REGISTRY = System.getProperty("volumizer.registry.url",
            "http://127.0.0.1:8085/apis/ccompat/v7");
    private final String subject = "it-coder-" + UUID.randomUUID() + "-value";

    private static DocumentEvent event() {
        Instant time = Instant.parse("2024-05-01T00:00:00Z");
        return DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository("bank").setId("d1")
                .setParentId("p").setType("Statement").setName("s.pdf").setTitle("Statement — Zoë").setCreated(time)
                .setModified(time).setProperties(Map.of("amount", 1.5)).setEventTime(time).setVersion(1L).build();
    }

    @Test
    void flinkAvroAndOurCodecReadEachOther() throws Exception {
        var serializer = RegistryAvroSerializationSchema.forSpecific(DocumentEvent.class,
                ConfluentSchemaCoder.provider(REGISTRY, subject));
        var deserializer = new RegistryAvroDeserializationSchema<>(DocumentEvent.class, null,
                ConfluentSchemaCoder.provider(REGISTRY, subject));
        serializer.open(null);
        deserializer.open(null);
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(new SchemaRegistryClient(REGISTRY), subject,
                DocumentEvent.class);

        byte[] fromFlink = serializer.serialize(event());

        assertThat(codec.decode(fromFlink)).isEqualTo(event());
        assertThat(deserializer.deserialize(codec.encode(event()))).isEqualTo(event());
    }

    @Test
    void garbageIsAWireFormatError() throws Exception {
        var deserializer = new RegistryAvroDeserializationSchema<>(DocumentEvent.class, null,
                ConfluentSchemaCoder.provider(REGISTRY, subject));
        deserializer.open(null);

        assertThatThrownBy(() -> deserializer.deserialize("{}".getBytes())).hasCauseInstanceOf(WireFormatException.class)
                .hasMessageContaining("WRONG_MAGIC_BYTE");
        assertThatThrownBy(() -> deserializer.deserialize(new byte[] {0, 0x7f, 0, 0, 1, 2}))
                .hasMessageContaining("UNKNOWN_SCHEMA_ID");
    }
}
