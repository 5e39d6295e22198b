package io.volumizer.stores.mongodb;

import static io.volumizer.stores.DocumentFields.ACL;
import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.CREATED;
import static io.volumizer.stores.DocumentFields.DELETED;
import static io.volumizer.stores.DocumentFields.IMPORTED_AT;
import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.MANAGE_ACL;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.ORIGIN;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PATH;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.READ_ACL;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;
import static io.volumizer.stores.DocumentFields.WRITE_ACL;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.bson.BsonBinaryWriter;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;

import io.volumizer.schemas.event.Ace;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;

/**
 * The stored form of an imported document, written field by field straight into BSON bytes. The driver sends a
 * {@link RawBsonDocument} as it is; a {@code Document} is encoded value by value through the codec registry,
 * which took a third of the import's TaskManager samples in a profile.
 *
 * <p>Fields ({@link DocumentFields}): {@code _id, repository, parentId, ancestorIds, path, type, name, title, created,
 * modified, version, properties, importedAt}, then {@code blob}, {@code origin}, {@code acl} (the document's own),
 * {@code readAcl, writeAcl, manageAcl} (its effective ACL, as the import computed it) and {@code deleted} where they
 * apply. Dates are BSON dates (milliseconds), null values are BSON nulls; a permission is its name ({@code READ}).
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
            writeStrings(bson, ANCESTOR_IDS, event.getAncestorIds());
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
                if (origin.getFile() != null) {
                    bson.writeString(DocumentFields.Origin.FILE, origin.getFile());
                }
                bson.writeEndDocument();
            }
            if (document.getAcl() != null) {
                writeAcl(bson, document.getAcl());
            }
            EffectiveAcl effective = event.getEffectiveAcl();
            if (effective != null) {
                writeStrings(bson, READ_ACL, effective.getRead());
                writeStrings(bson, WRITE_ACL, effective.getWrite());
                writeStrings(bson, MANAGE_ACL, effective.getManage());
            }
            if (document.getOperation() == Operation.DELETE) {
                bson.writeBoolean(DELETED, true);
            }
            bson.writeEndDocument();
        }
        return new RawBsonDocument(buffer.getInternalBuffer(), 0, buffer.getPosition());
    }

    /** The document's own ACL read back from its stored form; null if it has none. */
    static Acl acl(Document stored) {
        Document acl = stored.get(ACL, Document.class);
        if (acl == null) {
            return null;
        }
        List<Ace> aces = new ArrayList<>();
        for (Document ace : acl.getList(DocumentFields.Acl.ACES, Document.class)) {
            aces.add(new Ace(ace.getString(DocumentFields.Acl.PRINCIPAL),
                    Permission.valueOf(ace.getString(DocumentFields.Acl.PERMISSION)),
                    ace.getBoolean(DocumentFields.Acl.GRANTED)));
        }
        return new Acl(aces, acl.getBoolean(DocumentFields.Acl.BLOCK_INHERITANCE));
    }

    /** The effective ACL read back from a stored form; null for a document stored before ACLs. */
    static EffectiveAcl effectiveAcl(Document stored) {
        if (!stored.containsKey(READ_ACL)) {
            return null;
        }
        return new EffectiveAcl(strings(stored, READ_ACL), strings(stored, WRITE_ACL), strings(stored, MANAGE_ACL));
    }

    private static List<String> strings(Document stored, String name) {
        return new ArrayList<>(stored.getList(name, String.class));
    }

    private static void writeAcl(BsonBinaryWriter bson, Acl acl) {
        bson.writeStartDocument(ACL);
        bson.writeStartArray(DocumentFields.Acl.ACES);
        for (Ace ace : acl.getAces()) {
            bson.writeStartDocument();
            bson.writeString(DocumentFields.Acl.PRINCIPAL, ace.getPrincipal());
            bson.writeString(DocumentFields.Acl.PERMISSION, ace.getPermission().name());
            bson.writeBoolean(DocumentFields.Acl.GRANTED, ace.getGranted());
            bson.writeEndDocument();
        }
        bson.writeEndArray();
        bson.writeBoolean(DocumentFields.Acl.BLOCK_INHERITANCE, acl.getBlockInheritance());
        bson.writeEndDocument();
    }

    private static void writeStrings(BsonBinaryWriter bson, String name, List<String> values) {
        bson.writeStartArray(name);
        for (String value : values) {
            bson.writeString(value);
        }
        bson.writeEndArray();
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
