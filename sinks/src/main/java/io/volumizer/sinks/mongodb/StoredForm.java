package io.volumizer.sinks.mongodb;

import java.time.Instant;
import java.util.Map;

import org.bson.BsonBinaryWriter;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;

/**
 * The stored form of an imported document, written field by field straight into BSON bytes. The driver sends a
 * {@link RawBsonDocument} as it is; a {@code Document} is encoded value by value through the codec registry,
 * which took a third of the import's TaskManager samples in a profile.
 *
 * <p>Fields: {@code _id, repository, parentId, ancestorIds, path, type, name, title, created, modified, version,
 * properties, importedAt}, then {@code blob}, {@code origin} and {@code deleted} where they apply. Dates are BSON
 * dates (milliseconds), null values are BSON nulls.
 */
final class StoredForm {

    private StoredForm() {
    }

    static RawBsonDocument of(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        BasicOutputBuffer buffer = new Utf8OutputBuffer(512);
        try (BsonBinaryWriter bson = new BsonBinaryWriter(buffer)) {
            bson.writeStartDocument();
            bson.writeString("_id", document.getId());
            bson.writeString("repository", document.getRepository());
            writeNullable(bson, "parentId", document.getParentId());
            bson.writeStartArray("ancestorIds");
            for (String ancestor : event.getAncestorIds()) {
                bson.writeString(ancestor);
            }
            bson.writeEndArray();
            bson.writeString("path", event.getPath());
            bson.writeString("type", document.getType());
            bson.writeString("name", document.getName());
            bson.writeString("title", document.getTitle());
            writeDate(bson, "created", document.getCreated());
            writeDate(bson, "modified", document.getModified());
            bson.writeInt64("version", document.getVersion());
            bson.writeStartDocument("properties");
            for (Map.Entry<String, Object> property : document.getProperties().entrySet()) {
                writeValue(bson, property.getKey(), property.getValue());
            }
            bson.writeEndDocument();
            writeDate(bson, "importedAt", event.getImportedAt());
            BlobRef blob = document.getBlob();
            if (blob != null) {
                bson.writeStartDocument("blob");
                bson.writeString("key", blob.getKey());
                bson.writeString("mimeType", blob.getMimeType());
                bson.writeString("filename", blob.getFilename());
                writeNullable(bson, "digest", blob.getDigest());
                writeValue(bson, "length", blob.getLength());
                bson.writeEndDocument();
            }
            Origin origin = document.getOrigin();
            if (origin != null) {
                bson.writeStartDocument("origin");
                bson.writeString("source", origin.getSource());
                writeValue(bson, "seed", origin.getSeed());
                writeValue(bson, "index", origin.getIndex());
                bson.writeEndDocument();
            }
            if (document.getOperation() == Operation.DELETE) {
                bson.writeBoolean("deleted", true);
            }
            bson.writeEndDocument();
        }
        return new RawBsonDocument(buffer.getInternalBuffer(), 0, buffer.getPosition());
    }

    private static void writeDate(BsonBinaryWriter bson, String name, Instant time) {
        bson.writeDateTime(name, time.toEpochMilli());
    }

    private static void writeNullable(BsonBinaryWriter bson, String name, String value) {
        if (value == null) {
            bson.writeNull(name);
        } else {
            bson.writeString(name, value);
        }
    }

    /** A property value: the types a document event's properties can hold (null, boolean, long, double, string). */
    private static void writeValue(BsonBinaryWriter bson, String name, Object value) {
        if (value == null) {
            bson.writeNull(name);
        } else if (value instanceof String text) {
            bson.writeString(name, text);
        } else if (value instanceof Long number) {
            bson.writeInt64(name, number);
        } else if (value instanceof Double number) {
            bson.writeDouble(name, number);
        } else if (value instanceof Boolean flag) {
            bson.writeBoolean(name, flag);
        } else {
            throw new IllegalArgumentException("property " + name + " has a value of type " + value.getClass().getName()
                    + ", which a document event cannot hold");
        }
    }
}
