package io.volumizer.schemas.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.registry.SchemaRegistryClient;

/** The codec against the local registry (Confluent API served by Apicurio). */
class AvroCodecIT {

    private static final String REGISTRY = System.getProperty("volumizer.registry.url");
    private final SchemaRegistryClient registry = new SchemaRegistryClient(REGISTRY);
    private final String topic = "it-codec-" + UUID.randomUUID();

    static DocumentEvent statement() {
        Instant created = Instant.parse("2021-03-31T00:00:00Z");
        return DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository("bank").setId("s-1")
                .setParentId("a-1").setType("Statement").setName("2021-03.pdf").setTitle("Statement March 2021 — Zoë")
                .setCreated(created).setModified(created)
                .setProperties(Map.of("closingBalance", 1234.5, "operations", 17L, "period", "2021-03", "closed", false))
                .setBlob(BlobRef.newBuilder().setKey("gen/1/statement/7").setMimeType("application/pdf")
                        .setFilename("2021-03.pdf").build())
                .setEventTime(created).setVersion(1L)
                .setOrigin(Origin.newBuilder().setSource("generator").setSeed(1L).setIndex(7L).build())
                .build();
    }

    @Test
    void roundTripsADocumentEventThroughTheRegistry() {
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(registry, AvroCodec.valueSubject(topic),
                DocumentEvent.class);

        byte[] bytes = codec.encode(statement());
        DocumentEvent decoded = AvroCodec.forSpecific(new SchemaRegistryClient(REGISTRY), "unused",
                DocumentEvent.class).decode(bytes);

        assertThat(bytes[0]).isZero();
        assertThat(ConfluentWireFormat.schemaId(bytes)).isEqualTo(codec.schemaId());
        assertThat(decoded).isEqualTo(statement());
        assertThat(registry.schemaById(codec.schemaId())).isEqualTo(DocumentEvent.getClassSchema());
    }

    @Test
    void unknownSchemaIdIsNamed() {
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(registry, AvroCodec.valueSubject(topic),
                DocumentEvent.class);
        byte[] bytes = codec.encode(statement());
        ConfluentWireFormat.writeHeader(Integer.MAX_VALUE - 11, bytes);

        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOfSatisfying(WireFormatException.class,
                e -> assertThat(e.kind()).isEqualTo(WireFormatException.Kind.UNKNOWN_SCHEMA_ID));
    }

    @Test
    void aSchemaIdWhoseSchemaIsNotAvroIsNamedNotAnOutage() throws Exception {
        // A JSON schema registered under the subject of another producer's topic: its id in front of an Avro body.
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        String jsonSchema = "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"type\": \"object\", "
                + "\"properties\": {\"id\": {\"type\": \"string\"}}}";
        String body = json.createObjectNode().put("schemaType", "JSON").put("schema", jsonSchema).toString();
        java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(REGISTRY + "/subjects/" + topic + "-json/versions"))
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        int jsonSchemaId = json.readTree(answer.body()).path("id").asInt();
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(registry, AvroCodec.valueSubject(topic),
                DocumentEvent.class);
        byte[] bytes = codec.encode(statement());
        ConfluentWireFormat.writeHeader(jsonSchemaId, bytes);

        assertThatThrownBy(() -> AvroCodec.forSpecific(new SchemaRegistryClient(REGISTRY), "unused", DocumentEvent.class)
                .decode(bytes)).isInstanceOfSatisfying(WireFormatException.class, e -> {
                    assertThat(e.kind()).isEqualTo(WireFormatException.Kind.NOT_AVRO);
                    assertThat(e).hasMessageContaining("schema id " + jsonSchemaId + " is a JSON schema, not Avro");
                });
    }

    @Test
    void truncatedAndGarbageBodiesAreNamed() {
        AvroCodec<DocumentEvent> codec = AvroCodec.forSpecific(registry, AvroCodec.valueSubject(topic),
                DocumentEvent.class);
        byte[] bytes = codec.encode(statement());
        byte[] truncated = Arrays.copyOf(bytes, bytes.length / 2);
        byte[] garbage = bytes.clone();
        Arrays.fill(garbage, 5, garbage.length, (byte) 0xff);

        assertThatThrownBy(() -> codec.decode(truncated)).isInstanceOfSatisfying(WireFormatException.class,
                e -> assertThat(e.kind()).isEqualTo(WireFormatException.Kind.TRUNCATED));
        assertThatThrownBy(() -> codec.decode(garbage)).isInstanceOfSatisfying(WireFormatException.class,
                e -> assertThat(e.kind()).isIn(WireFormatException.Kind.MALFORMED_AVRO, WireFormatException.Kind.TRUNCATED));
    }

    @Test
    void oldReadersReadDataWrittenWithAnEvolvedSchema() {
        registry.setCompatibility(AvroCodec.valueSubject(topic), "BACKWARD");
        Schema v1 = SchemaBuilder.record("Account").namespace("io.volumizer.it").fields()
                .requiredString("number").requiredDouble("balance").endRecord();
        Schema v2 = SchemaBuilder.record("Account").namespace("io.volumizer.it").fields()
                .requiredString("number").requiredDouble("balance")
                .name("currency").type().stringType().stringDefault("USD").endRecord();
        AvroCodec<GenericData.Record> v1Codec = AvroCodec.forGeneric(registry, AvroCodec.valueSubject(topic), v1);
        AvroCodec<GenericData.Record> v2Codec = AvroCodec.forGeneric(registry, AvroCodec.valueSubject(topic), v2);
        int v1Id = v1Codec.schemaId();
        GenericData.Record written = new GenericData.Record(v2);
        written.put("number", "ACC-1");
        written.put("balance", 10.5);
        written.put("currency", "EUR");

        byte[] bytes = v2Codec.encode(written);
        GenericData.Record readByV1 = v1Codec.decode(bytes);

        assertThat(v2Codec.schemaId()).as("the registry accepted the evolved schema as a new version").isNotEqualTo(v1Id);
        assertThat(readByV1.get("number").toString()).isEqualTo("ACC-1");
        assertThat(readByV1.get("balance")).isEqualTo(10.5);
        assertThat(readByV1.getSchema().getField("currency")).isNull();
    }

    @Test
    void kafkaSerdeWritesWhatAnyConfluentClientReadsAndFailsWithTheReason() {
        var serializer = KafkaAvroSerde.serializer(REGISTRY, DocumentEvent.class);
        var deserializer = KafkaAvroSerde.deserializer(REGISTRY, DocumentEvent.class);

        byte[] bytes = serializer.serialize(topic, statement());

        assertThat(deserializer.deserialize(topic, bytes)).isEqualTo(statement());
        assertThat(registry.schemaById(ConfluentWireFormat.schemaId(bytes))).isEqualTo(DocumentEvent.getClassSchema());
        assertThatThrownBy(() -> deserializer.deserialize(topic, "not avro".getBytes()))
                .isInstanceOf(SerializationException.class).hasCauseInstanceOf(WireFormatException.class)
                .hasMessageContaining("WRONG_MAGIC_BYTE");
    }
}
