package io.volumizer.schemas.codec;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.FastReaderBuilder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

import io.volumizer.schemas.registry.NotAvroSchemaException;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.schemas.registry.SchemaRegistryException;

/**
 * Encodes and decodes one Avro type in the Confluent wire format, registering its schema under a subject
 * ({@code <topic>-value}) and resolving any registered writer schema to this codec's reader schema, so readers keep
 * reading data written by newer, BACKWARD-compatible schemas.
 *
 * <p>Thread-safe; serializable for Flink (caches are rebuilt after deserialization).
 */
public final class AvroCodec<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final SchemaRegistryClient registry;
    private final String subject;
    private final String readerSchemaJson;
    private final Class<T> specificClass;

    private transient Schema readerSchema;
    private transient volatile Integer writerSchemaId;
    private transient Map<Integer, DatumReader<T>> readersByWriterId;
    private transient DatumWriter<T> writer;

    private AvroCodec(SchemaRegistryClient registry, String subject, Schema readerSchema, Class<T> specificClass) {
        this.registry = registry;
        this.subject = subject;
        this.readerSchemaJson = readerSchema.toString();
        this.specificClass = specificClass;
    }

    /** A codec of a generated Avro class (reads into and writes from that class). */
    public static <T extends SpecificRecord> AvroCodec<T> forSpecific(SchemaRegistryClient registry, String subject,
            Class<T> type) {
        return new AvroCodec<>(registry, subject, SpecificData.get().getSchema(type), type);
    }

    /** A codec of generic records of {@code schema}. */
    public static AvroCodec<GenericData.Record> forGeneric(SchemaRegistryClient registry, String subject,
            Schema schema) {
        return new AvroCodec<>(registry, subject, schema, null);
    }

    /** The subject the Confluent TopicNameStrategy uses for a topic's record values. */
    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    public Schema schema() {
        if (readerSchema == null) {
            readerSchema = new Schema.Parser().parse(readerSchemaJson);
        }
        return readerSchema;
    }

    /** The registry id of this codec's schema under its subject, registering it on first use. */
    public int schemaId() {
        Integer id = writerSchemaId;
        if (id == null) {
            id = registry.register(subject, schema());
            writerSchemaId = id;
        }
        return id;
    }

    public byte[] encode(T datum) {
        int id = schemaId();
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.write(ConfluentWireFormat.MAGIC_BYTE);
        out.write(id >>> 24);
        out.write(id >>> 16);
        out.write(id >>> 8);
        out.write(id);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer().write(datum, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot encode as " + schema().getFullName() + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** @throws WireFormatException naming why the bytes cannot be read */
    public T decode(byte[] message) {
        int id = ConfluentWireFormat.schemaId(message);
        DatumReader<T> reader = readerFor(id);
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(message, ConfluentWireFormat.HEADER_LENGTH,
                message.length - ConfluentWireFormat.HEADER_LENGTH, null);
        T datum;
        try {
            datum = reader.read(null, decoder);
        } catch (EOFException e) {
            throw new WireFormatException(WireFormatException.Kind.TRUNCATED,
                    "Avro body ends early for writer schema id " + id, e);
        } catch (IOException | RuntimeException e) {
            // Garbage read as Avro fails in many ways (bad union index, negative length, wrong type): all one kind.
            throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO,
                    "Avro body does not match writer schema id " + id + ": " + e, e);
        }
        try {
            if (!decoder.isEnd()) {
                throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO,
                        "bytes left after the Avro body of writer schema id " + id);
            }
        } catch (IOException e) {
            throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO, "cannot read past the Avro body", e);
        }
        return datum;
    }

    private DatumReader<T> readerFor(int writerId) {
        if (readersByWriterId == null) {
            readersByWriterId = new ConcurrentHashMap<>();
        }
        DatumReader<T> reader = readersByWriterId.get(writerId);
        if (reader == null) {
            Schema writerSchema = writerSchema(writerId);
            try {
                // Avro's fast reader resolves the writer schema to the reader schema once, into a tree of field
                // readers; the default reader interprets a resolving grammar for every record (a profile of the
                // import showed decoding at 11% of its TaskManager's samples).
                GenericData model = specificClass != null ? SpecificData.getForClass(specificClass) : GenericData.get();
                reader = new FastReaderBuilder(model).createDatumReader(writerSchema, schema());
            } catch (IOException | AvroRuntimeException e) {
                throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO,
                        "writer schema id " + writerId + " cannot be read as " + schema().getFullName(), e);
            }
            readersByWriterId.put(writerId, reader);
        }
        return reader;
    }

    private Schema writerSchema(int id) {
        try {
            return registry.schemaById(id);
        } catch (NotAvroSchemaException e) {
            throw new WireFormatException(WireFormatException.Kind.NOT_AVRO, e.getMessage(), e);
        } catch (SchemaRegistryException e) {
            if (e.status() == 404) {
                throw new WireFormatException(WireFormatException.Kind.UNKNOWN_SCHEMA_ID,
                        "schema id " + id + " is not in the registry at " + registry.baseUrl(), e);
            }
            throw new WireFormatException(WireFormatException.Kind.REGISTRY_UNAVAILABLE, e.getMessage(), e);
        }
    }

    private DatumWriter<T> writer() {
        if (writer == null) {
            writer = specificClass != null ? new SpecificDatumWriter<>(schema(), SpecificData.getForClass(specificClass)) : new GenericDatumWriter<>(schema());
        }
        return writer;
    }
}
