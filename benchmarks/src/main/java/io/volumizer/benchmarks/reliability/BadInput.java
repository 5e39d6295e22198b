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
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.DocumentKeys;

/**
 * A documents topic in which a share of the statements is replaced by bad records, a third of each kind: bytes
 * that are no Avro record, a record under a schema id the registry does not know, and an orphan (a parent that
 * never arrives). Statements have no children, so no good document depends on one replaced. The places of the bad
 * records (partition, offset) are kept: exactly those must come back as dead letters.
 */
final class BadInput {

    /** Where a bad record went, and which of its documents it replaced. */
    record Injected(Set<String> positions, Set<String> replacedIds) {
    }

    private BadInput() {
    }

    /** Produces every document, keyed by parent id, replacing {@code share} of the statements; returns what it injected. */
    static Injected produce(String bootstrapServers, String topic, AvroCodec<DocumentEvent> codec,
            List<DocumentEvent> documents, double share, long seed) throws Exception {
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
                bad.add(producer.send(switch (bad.size() % 3) {
                    case 0 -> record(topic, key, garbage(random));
                    case 1 -> record(topic, key, underUnknownSchema(codec.encode(document)));
                    default -> orphan(topic, codec, document);
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

    private static byte[] underUnknownSchema(byte[] encoded) {
        byte[] copy = encoded.clone();
        ConfluentWireFormat.writeHeader(Integer.MAX_VALUE - 7, copy);
        return copy;
    }

    private static ProducerRecord<byte[], byte[]> orphan(String topic, AvroCodec<DocumentEvent> codec, DocumentEvent document) {
        DocumentEvent orphan = DocumentEvent.newBuilder(document).setParentId("gone-" + document.getParentId()).build();
        return record(topic, DocumentKeys.parentKey(orphan), codec.encode(orphan));
    }
}
