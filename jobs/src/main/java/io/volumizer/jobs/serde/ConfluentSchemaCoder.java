package io.volumizer.jobs.serde;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import org.apache.avro.Schema;
import org.apache.flink.formats.avro.SchemaCoder;

import io.volumizer.schemas.codec.ConfluentWireFormat;
import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.schemas.registry.SchemaRegistryException;

/**
 * The Confluent wire-format header for flink-avro's {@code RegistryAvroSerializationSchema} and
 * {@code RegistryAvroDeserializationSchema}: magic byte 0 and the schema's registry id, registered under a subject
 * ({@code <topic>-value}). Errors are {@link WireFormatException}s (wrapped in an IOException where flink-avro
 * expects one), naming the kind a pipeline can dead-letter by.
 */
public final class ConfluentSchemaCoder implements SchemaCoder {

    private final SchemaRegistryClient registry;
    private final String subject;

    public ConfluentSchemaCoder(SchemaRegistryClient registry, String subject) {
        this.registry = registry;
        this.subject = subject;
    }

    /** A provider for flink-avro's registry schemas; the client's caches live per task. */
    public static SchemaCoder.SchemaCoderProvider provider(String registryUrl, String subject) {
        return () -> new ConfluentSchemaCoder(new SchemaRegistryClient(registryUrl), subject);
    }

    @Override
    public Schema readSchema(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int magic = data.read();
        if (magic != ConfluentWireFormat.MAGIC_BYTE) {
            throw new IOException(new WireFormatException(magic < 0 ? WireFormatException.Kind.TRUNCATED
                    : WireFormatException.Kind.WRONG_MAGIC_BYTE, "first byte is " + magic + ", not the magic byte 0"));
        }
        int id;
        try {
            id = data.readInt();
        } catch (EOFException e) {
            throw new IOException(new WireFormatException(WireFormatException.Kind.TRUNCATED, "no 4-byte schema id"));
        }
        try {
            return registry.schemaById(id);
        } catch (SchemaRegistryException e) {
            WireFormatException.Kind kind = e.status() == 404 ? WireFormatException.Kind.UNKNOWN_SCHEMA_ID
                    : WireFormatException.Kind.REGISTRY_UNAVAILABLE;
            throw new IOException(new WireFormatException(kind, "schema id " + id + ": " + e.getMessage(), e));
        }
    }

    @Override
    public void writeSchema(Schema schema, OutputStream out) throws IOException {
        int id = registry.register(subject, schema);
        DataOutputStream data = new DataOutputStream(out);
        data.writeByte(ConfluentWireFormat.MAGIC_BYTE);
        data.writeInt(id);
    }
}
