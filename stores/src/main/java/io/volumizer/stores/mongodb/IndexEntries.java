package io.volumizer.stores.mongodb;

import java.util.ArrayList;
import java.util.List;

import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

/**
 * The bytes a stored document adds to its collection's indexes, counted from the indexes' definitions (as
 * {@code listIndexes} returns them): each entry's key values as BSON, and a record id. The MongoDB stand-in does not
 * report index sizes; a real MongoDB's are smaller (WiredTiger compresses the keys' prefixes), so this is the upper
 * bound the planner sizes the WiredTiger cache with.
 */
public final class IndexEntries {

    /** A record id (a 64-bit integer) each entry points to. */
    public static final int RECORD_ID_BYTES = 8;
    /** A BSON element's type byte, its empty name's terminating zero, and a document's length and end. */
    private static final int EMPTY_NAMED_ELEMENT_OVERHEAD = 4 + 1 + 1 + 1;

    private final List<Index> indexes;

    /** An index: its key's field paths (dotted), and whether a document without them has no entry. */
    public record Index(List<String> fields, boolean sparse) {
    }

    /** @param definitions the collection's indexes, as {@code listIndexes} returns them ({@code key}, {@code sparse}) */
    public static IndexEntries of(List<BsonDocument> definitions) {
        List<Index> indexes = new ArrayList<>();
        for (BsonDocument definition : definitions) {
            indexes.add(new Index(new ArrayList<>(definition.getDocument("key").keySet()),
                    definition.getBoolean("sparse", BsonBoolean.FALSE).getValue()));
        }
        return new IndexEntries(indexes);
    }

    IndexEntries(List<Index> indexes) {
        this.indexes = List.copyOf(indexes);
    }

    /** The bytes of every entry the document makes in every index. */
    public long bytes(RawBsonDocument document) {
        long bytes = 0;
        for (Index index : indexes) {
            bytes += bytes(index, document);
        }
        return bytes;
    }

    private static long bytes(Index index, BsonDocument document) {
        long keyBytes = 0;
        int entries = 1;
        boolean anyField = false;
        for (String field : index.fields()) {
            BsonValue value = at(document, field);
            if (value == null) {
                // A missing field is indexed as null, unless the index is sparse
                keyBytes += 1;
                continue;
            }
            anyField = true;
            if (value instanceof BsonArray array) {
                // A multikey index: one entry per element (MongoDB allows one array field per compound key)
                entries = Math.max(array.size(), 1);
                long elements = 0;
                for (BsonValue element : array) {
                    elements += valueBytes(element);
                }
                keyBytes += array.isEmpty() ? 0 : elements / array.size();
            } else {
                keyBytes += valueBytes(value);
            }
        }
        if (index.sparse() && !anyField) {
            return 0;
        }
        return entries * (keyBytes + RECORD_ID_BYTES);
    }

    private static BsonValue at(BsonDocument document, String path) {
        BsonValue value = document;
        for (String part : path.split("\\.")) {
            if (!(value instanceof BsonDocument parent) || !parent.containsKey(part)) {
                return null;
            }
            value = parent.get(part);
        }
        return value;
    }

    /** A value's BSON bytes, without an element's name. */
    public static int valueBytes(BsonValue value) {
        RawBsonDocument wrapped = new RawBsonDocument(new BsonDocument("", value), new BsonDocumentCodec());
        return wrapped.getByteBuffer().remaining() - EMPTY_NAMED_ELEMENT_OVERHEAD;
    }
}
