package io.volumizer.stores.mongodb;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.CREATED;
import static io.volumizer.stores.DocumentFields.DELETED;
import static io.volumizer.stores.DocumentFields.IMPORTED_AT;
import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.ORIGIN;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PATH;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

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
import io.volumizer.stores.DocumentFields;

/**
 * The stored form of an imported document, written field by field straight into BSON bytes. The driver sends a
 * {@link RawBsonDocument} as it is; a {@code Document} is encoded value by value through the codec registry,
 * which took a third of the import's TaskManager samples in a profile.
 *
 * <p>Fields ({@link DocumentFields}): {@code _id, repository, parentId, ancestorIds, path, type, name, title, created,
 * modified, version, properties, importedAt}, then {@code blob}, {@code origin} and {@code deleted} where they apply.
 * Dates are BSON dates (milliseconds), null values are BSON nulls.
 */
final class StoredForm {

    private StoredForm() {
    }

    static RawBsonDocument of(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        BasicOutputBuffer buffer = new Utf8OutputBuffer(512);
        try (BsonBinaryWriter bson = new BsonBinaryWriter(buffer)) {
            bson.writeStartDocument();
            bson.writeString(KEY, document.getId());
            bson.writeString(REPOSITORY, document.getRepository());
            writeNullable(bson, PARENT_ID, document.getParentId());
            bson.writeStartArray(ANCESTOR_IDS);
            for (String ancestor : event.getAncestorIds()) {
                bson.writeString(ancestor);
            }
            bson.writeEndArray();
            bson.writeString(PATH, event.getPath());
            bson.writeString(TYPE, document.getType());
            bson.writeString(NAME, document.getName());
            bson.writeString(TITLE, document.getTitle());
            writeDate(bson, CREATED, document.getCreated());
            writeDate(bson, MODIFIED, document.getModified());
            bson.writeInt64(VERSION, document.getVersion());
            bson.writeStartDocument(PROPERTIES);
            for (Map.Entry<String, Object> property : document.getProperties().entrySet()) {
                writeValue(bson, property.getKey(), property.getValue());
            }
            bson.writeEndDocument();
            writeDate(bson, IMPORTED_AT, event.getImportedAt());
            BlobRef blob = document.getBlob();
            if (blob != null) {
                bson.writeStartDocument(BLOB);
                bson.writeString(DocumentFields.Blob.KEY, blob.getKey());
                bson.writeString(DocumentFields.Blob.MIME_TYPE, blob.getMimeType());
                bson.writeString(DocumentFields.Blob.FILENAME, blob.getFilename());
                writeNullable(bson, DocumentFields.Blob.DIGEST, blob.getDigest());
                writeValue(bson, DocumentFields.Blob.LENGTH, blob.getLength());
                bson.writeEndDocument();
            }
            Origin origin = document.getOrigin();
            if (origin != null) {
                bson.writeStartDocument(ORIGIN);
                bson.writeString(DocumentFields.Origin.SOURCE, origin.getSource());
                writeValue(bson, DocumentFields.Origin.SEED, origin.getSeed());
                writeValue(bson, DocumentFields.Origin.INDEX, origin.getIndex());
                if (origin.getCommand() != null) {
                    bson.writeString(DocumentFields.Origin.COMMAND, origin.getCommand());
                }
                bson.writeEndDocument();
            }
            if (document.getOperation() == Operation.DELETE) {
                bson.writeBoolean(DELETED, true);
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
