package io.volumizer.stores.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

class IndexEntriesTest {

    private static BsonDocument index(String key, boolean sparse) {
        BsonDocument definition = new BsonDocument("key", BsonDocument.parse(key));
        return sparse ? definition.append("sparse", BsonBoolean.TRUE) : definition;
    }

    @Test
    void aStringValueIsItsLengthItsTerminatorAndItsUtf8Bytes() {
        assertThat(IndexEntries.valueBytes(new BsonString("abc"))).isEqualTo(4 + 3 + 1);
        assertThat(IndexEntries.valueBytes(new BsonInt32(7))).isEqualTo(4);
    }

    @Test
    void aDocumentMakesOneEntryPerIndexOneForEachElementOfAnArrayAndNoneInASparseIndexItLacks() {
        RawBsonDocument stored = RawBsonDocument.parse(
                "{_id: 'abc', parentId: 'p', name: 'n', ancestorIds: ['a', 'bb', 'ccc'], origin: {other: 1}}");
        IndexEntries entries = IndexEntries.of(List.of(index("{_id: 1}", false), index("{parentId: 1, name: 1}", false),
                index("{ancestorIds: 1}", false), index("{'origin.command': 1}", true)));

        long id = 8 + IndexEntries.RECORD_ID_BYTES;
        long children = (6 + 6) + IndexEntries.RECORD_ID_BYTES;
        // three entries of the elements' average size: (6 + 7 + 8) / 3 = 7
        long ancestors = 3 * (7 + IndexEntries.RECORD_ID_BYTES);
        assertThat(entries.bytes(stored)).isEqualTo(id + children + ancestors);
    }

    @Test
    void aMissingFieldOfANonSparseIndexIsIndexedAsNull() {
        IndexEntries entries = IndexEntries.of(List.of(index("{'origin.command': 1}", false)));

        assertThat(entries.bytes(RawBsonDocument.parse("{_id: 1}"))).isEqualTo(1 + IndexEntries.RECORD_ID_BYTES);
    }
}
