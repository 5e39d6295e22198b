package io.volumizer.jobs.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.io.DecoderFactory;
import java.nio.charset.StandardCharsets;

import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.keys.DocumentKeys;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;

/** Document events for operator tests. */
public final class Documents {

    private Documents() {
    }

    public static DocumentEvent document(String id, String parentId, String name) {
        Instant time = Instant.parse("2024-01-01T00:00:00Z");
        return DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository("bank").setId(id)
                .setParentId(parentId).setType("Folder").setName(name).setTitle(name).setCreated(time)
                .setModified(time).setProperties(Map.of()).setEventTime(time).setVersion(1L).build();
    }

    public static ImportedEvent imported(String id) {
        return ImportedEvent.newBuilder().setDocument(document(id, "p", id)).setAncestorIds(List.of("p"))
                .setPath("/p/" + id).setImportedAt(Instant.EPOCH).build();
    }

    /** A documents-topic record as Kafka delivers it: keyed by parent id, the value in plain Avro binary. */
    public static RawRecord record(DocumentEvent document, long offset) {
        return new RawRecord(DocumentKeys.parentKey(document).getBytes(StandardCharsets.UTF_8), avro(document),
                "documents", 0, offset, 0);
    }

    /** Decodes {@link #avro}; anything else is a {@link WireFormatException}, like the registry codec's. */
    public static DocumentEvent fromAvro(byte[] bytes) {
        try {
            return new SpecificDatumReader<>(DocumentEvent.class).read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        } catch (IOException | RuntimeException e) {
            throw new WireFormatException(WireFormatException.Kind.MALFORMED_AVRO, "not a document: " + e.getMessage(), e);
        }
    }

    /** Plain Avro binary (no registry): enough for a dead letter's payload in a unit test. */
    public static byte[] avro(DocumentEvent document) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new SpecificDatumWriter<>(DocumentEvent.class).write(document, encoder);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
