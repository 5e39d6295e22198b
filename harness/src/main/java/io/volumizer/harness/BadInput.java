package io.volumizer.harness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.Supplier;

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
 * A documents topic in which a share of the statements is replaced by bad or hostile records, as many of each
 * {@link Kind}. Statements have no children, so no good document depends on one replaced. A bad record must come
 * back as a dead letter: its place (partition, offset) is kept. A hostile one is valid, however odd, and must land
 * in both stores like any document: it stays among the expected documents, under its id and version.
 */
public final class BadInput {

    /** A way to spoil a statement; {@code lands}: still a valid document, which must be stored, not dead-lettered. */
    public enum Kind {
        /** Bytes that are no Avro record. */
        GARBAGE(false),
        /** An Avro body under a schema id the registry does not know. */
        UNKNOWN_SCHEMA_ID(false),
        /** A parent that never arrives. */
        ORPHAN(false),
        /** An Avro body under the id of a JSON schema (crafted poison). */
        JSON_SCHEMA_ID(false),
        /** A repository no store may hold (crafted poison). */
        INVALID_REPOSITORY(false),
        /** Version Long.MAX_VALUE, which would freeze its document (crafted poison). */
        EXTREME_VERSION(false),
        /** A generated blob key that does not parse (crafted poison). */
        INVALID_BLOB_KEY(false),
        /** The Avro body with bits flipped, until it no longer decodes. */
        BIT_FLIPS(false),
        /** The Avro body cut short. */
        TRUNCATED(false),
        /** A title of 256 KiB. */
        HUGE_TITLE(true),
        /** A name of 2,000 characters: control characters, right-to-left text, emoji, a slash. */
        ODD_NAME(true),
        /** 200 more properties, of 200 names shared by every such record. */
        MANY_PROPERTIES(true),
        /**
         * The statement's file replaced by an upload of a PDF whose font map inflates to {@link #BOMB_MIB} MiB:
         * stored as the API stores an upload, in a live repository, whose index reads files' text.
         */
        PDF_BOMB(true);

        /** What the PDF bomb's font map inflates to: past the index's default memory budget for a file, 256 MiB. */
        public static final int BOMB_MIB = 320;

        public final boolean lands;

        Kind(boolean lands) {
            this.lands = lands;
        }

        /** The crafted poisons and kinds of bad bytes of the reliability benchmark's bad-input scenario. */
        public static final List<Kind> BAD_INPUT = List.of(GARBAGE, UNKNOWN_SCHEMA_ID, ORPHAN, JSON_SCHEMA_ID, INVALID_REPOSITORY,
                EXTREME_VERSION, INVALID_BLOB_KEY);
        /** Everything: the fuzzing run's. */
        public static final List<Kind> FUZZ = List.of(values());
    }

    /**
     * What was injected: where each bad record went, the ids of the statements replaced by bad records (not
     * expected in the stores), the hostile documents that must land (id to version) and where they went, and how
     * many of each kind.
     */
    public record Injected(Map<String, Kind> positions, Set<String> replacedIds, Map<String, Long> hostile,
            Map<String, Kind> hostilePositions, Map<Kind, Long> kinds) {

        public static final Injected NONE = new Injected(Map.of(), Set.of(), Map.of(), Map.of(), Map.of());
    }

    private BadInput() {
    }

    /**
     * Produces every document, keyed by parent id, replacing {@code share} of the statements by records of
     * {@code kinds} in turn; returns what it injected. {@code pdfBomb} uploads the bomb's file, once, if asked for.
     */
    public static Injected produce(String bootstrapServers, String topic, AvroCodec<DocumentEvent> codec,
            List<DocumentEvent> documents, double share, long seed, int jsonSchemaId, List<Kind> kinds,
            Supplier<BlobRef> pdfBomb) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        Random random = new Random(seed);
        Map<Future<RecordMetadata>, Kind> bad = new LinkedHashMap<>();
        Map<Future<RecordMetadata>, Kind> landing = new LinkedHashMap<>();
        Set<String> replaced = new HashSet<>();
        Map<String, Long> hostile = new HashMap<>();
        Map<Kind, Long> counts = new EnumMap<>(Kind.class);
        int injected = 0;
        BlobRef bomb = kinds.contains(Kind.PDF_BOMB) ? pdfBomb.get() : null;
        try (var producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (DocumentEvent document : documents) {
                String key = DocumentKeys.parentKey(document);
                if (!document.getType().equals("Statement") || share <= 0 || random.nextDouble() >= share) {
                    producer.send(record(topic, key, codec.encode(document)));
                    continue;
                }
                Kind kind = kinds.get(injected++ % kinds.size());
                counts.merge(kind, 1L, Long::sum);
                if (kind.lands) {
                    DocumentEvent odd = hostile(kind, document, bomb);
                    hostile.put(odd.getId(), odd.getVersion());
                    landing.put(producer.send(record(topic, key, codec.encode(odd))), kind);
                    continue;
                }
                replaced.add(document.getId());
                bad.put(producer.send(switch (kind) {
                    case GARBAGE -> record(topic, key, garbage(random));
                    case UNKNOWN_SCHEMA_ID -> record(topic, key, underSchema(Integer.MAX_VALUE - 7, codec.encode(document)));
                    case ORPHAN -> orphan(topic, codec, document);
                    case JSON_SCHEMA_ID -> record(topic, key, underSchema(jsonSchemaId, codec.encode(document)));
                    case INVALID_REPOSITORY -> record(topic, key,
                            codec.encode(DocumentEvent.newBuilder(document).setRepository("BAD").build()));
                    case EXTREME_VERSION -> record(topic, key,
                            codec.encode(DocumentEvent.newBuilder(document).setVersion(Long.MAX_VALUE).build()));
                    case INVALID_BLOB_KEY -> record(topic, key, codec.encode(DocumentEvent.newBuilder(document)
                            .setBlob(BlobRef.newBuilder(document.getBlob()).setKey("gen/v1/" + seed + "/statement/not-a-number")
                                    .build()).build()));
                    case BIT_FLIPS -> record(topic, key, undecodable(codec, codec.encode(document), random, true));
                    case TRUNCATED -> record(topic, key, undecodable(codec, codec.encode(document), random, false));
                    default -> throw new IllegalStateException(kind + " lands");
                }), kind);
            }
            producer.flush();
        }
        return new Injected(positions(bad), replaced, hostile, positions(landing), counts);
    }

    private static Map<String, Kind> positions(Map<Future<RecordMetadata>, Kind> sent) throws Exception {
        Map<String, Kind> positions = new HashMap<>();
        for (Map.Entry<Future<RecordMetadata>, Kind> record : sent.entrySet()) {
            RecordMetadata metadata = record.getKey().get();
            positions.put(position(metadata.partition(), metadata.offset()), record.getValue());
        }
        return positions;
    }

    public static String position(int partition, long offset) {
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

    /**
     * The record's Avro body (past the wire format's header) with bits flipped, or cut short, again until it no
     * longer decodes: a flip inside a string's characters decodes into another valid document, whose fate could not
     * be told apart from a good one's.
     */
    private static byte[] undecodable(AvroCodec<DocumentEvent> codec, byte[] encoded, Random random, boolean flip) {
        int header = ConfluentWireFormat.HEADER_LENGTH;
        for (int attempt = 0; attempt < 1000; attempt++) {
            byte[] spoiled;
            if (flip) {
                spoiled = encoded.clone();
                for (int i = 0; i < 1 + attempt; i++) {
                    int at = header + random.nextInt(encoded.length - header);
                    spoiled[at] ^= (byte) (1 << random.nextInt(8));
                }
            } else {
                spoiled = Arrays.copyOf(encoded, header + random.nextInt(encoded.length - header));
            }
            try {
                codec.decode(spoiled);
            } catch (RuntimeException undecodable) {
                return spoiled;
            }
        }
        throw new IllegalStateException("no spoiled form of the record failed to decode");
    }

    /** A valid document, however odd, of the statement's id, parent and version. */
    private static DocumentEvent hostile(Kind kind, DocumentEvent document, BlobRef bomb) {
        return switch (kind) {
            case HUGE_TITLE -> DocumentEvent.newBuilder(document).setTitle("statement ".repeat(256 * 1024 / 10)).build();
            case ODD_NAME -> DocumentEvent.newBuilder(document).setName(("\u0007\t\u202eמסמך 📄 /.. "
                    + document.getName()).repeat(100).substring(0, 2000) + document.getId()).build();
            case MANY_PROPERTIES -> {
                Map<String, Object> properties = new LinkedHashMap<>(document.getProperties());
                for (int i = 0; i < 200; i++) {
                    properties.put(String.format("fuzz%03d", i), "value " + i);
                }
                yield DocumentEvent.newBuilder(document).setProperties(properties).build();
            }
            case PDF_BOMB -> DocumentEvent.newBuilder(document).setBlob(bomb).build();
            default -> throw new IllegalArgumentException(kind + " does not land");
        };
    }

    /** Registers a JSON schema under a subject of its own, as another producer of the topic's might; its id. */
    public static int jsonSchemaId(String registryUrl, String topic) throws Exception {
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
