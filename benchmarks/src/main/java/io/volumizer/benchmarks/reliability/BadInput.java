package io.volumizer.benchmarks.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.codec.ConfluentWireFormat;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;

/**
 * A documents topic in which a share of the statements is replaced by bad records, as many of each kind: bytes
 * that are no Avro record, a record under a schema id the registry does not know, an orphan (a parent that never
 * arrives), and the crafted poisons that once stopped the pipeline: a record under the id of a JSON schema, one of
 * a repository no store may hold, one with a version that would freeze its document, one with a generated blob key
 * that does not parse. Statements have no children, so no good document depends on one replaced. The places of the
 * bad records (partition, offset) are kept: exactly those must come back as dead letters.
 */
final class BadInput {

    /** Where a bad record went, and which of its documents it replaced. */
    record Injected(Set<String> positions, Set<String> replacedIds) {
    }

    private BadInput() {
    }

    /** Produces every document, keyed by parent id, replacing {@code share} of the statements; returns what it injected. */
    static Injected produce(String bootstrapServers, String topic, AvroCodec<DocumentEvent> codec,
            List<DocumentEvent> documents, double share, long seed, int jsonSchemaId) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        Random random = new Random(seed);
        List<Future<RecordMetadata>> bad = new ArrayList<>();
        Set<String> replaced = new HashSet<>();
        try (var producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (DocumentEvent document : documents) {
                String key = DocumentKeys.parentKey(document);
                if (!document.getType().equals("Statement") || random.nextDouble() >= share) {
                    producer.send(record(topic, key, codec.encode(document)));
                    continue;
                }
                replaced.add(document.getId());
                bad.add(producer.send(switch (bad.size() % 7) {
                    case 0 -> record(topic, key, garbage(random));
                    case 1 -> record(topic, key, underSchema(Integer.MAX_VALUE - 7, codec.encode(document)));
                    case 2 -> orphan(topic, codec, document);
                    case 3 -> record(topic, key, underSchema(jsonSchemaId, codec.encode(document)));
                    case 4 -> record(topic, key, codec.encode(DocumentEvent.newBuilder(document).setRepository("BAD").build()));
                    case 5 -> record(topic, key, codec.encode(DocumentEvent.newBuilder(document).setVersion(Long.MAX_VALUE).build()));
                    default -> record(topic, key, codec.encode(DocumentEvent.newBuilder(document).setBlob(BlobRef
                            .newBuilder(document.getBlob()).setKey("gen/v1/" + seed + "/statement/not-a-number").build())
                            .build()));
                }));
            }
            producer.flush();
        }
        Set<String> positions = new HashSet<>();
        for (Future<RecordMetadata> sent : bad) {
            RecordMetadata metadata = sent.get();
            positions.add(position(metadata.partition(), metadata.offset()));
        }
        return new Injected(positions, replaced);
    }

    static String position(int partition, long offset) {
        return partition + "@" + offset;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, byte[] value) {
        return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value);
    }

    private static byte[] garbage(Random random) {
        byte[] bytes = new byte[16 + random.nextInt(200)];
        random.nextBytes(bytes);
        bytes[0] = 1; // not the wire format's magic byte 0
        return bytes;
    }

    /** An Avro body under another schema id: one the registry does not know, or one of a schema that is not Avro. */
    private static byte[] underSchema(int schemaId, byte[] encoded) {
        byte[] copy = encoded.clone();
        ConfluentWireFormat.writeHeader(schemaId, copy);
        return copy;
    }

    /** Registers a JSON schema under a subject of its own, as another producer of the topic's might; its id. */
    static int jsonSchemaId(String registryUrl, String topic) throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        String schema = "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", \"type\": \"object\", "
                + "\"properties\": {\"id\": {\"type\": \"string\"}}}";
        var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(registryUrl + "/subjects/" + topic + "-json-value/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(json.createObjectNode().put("schemaType", "JSON")
                        .put("schema", schema).toString())).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("registry refused a JSON schema: HTTP " + answer.statusCode() + " " + answer.body());
        }
        return json.readTree(answer.body()).path("id").asInt();
    }

    private static ProducerRecord<byte[], byte[]> orphan(String topic, AvroCodec<DocumentEvent> codec, DocumentEvent document) {
        DocumentEvent orphan = DocumentEvent.newBuilder(document).setParentId("gone-" + document.getParentId()).build();
        return record(topic, DocumentKeys.parentKey(orphan), codec.encode(orphan));
    }
}
