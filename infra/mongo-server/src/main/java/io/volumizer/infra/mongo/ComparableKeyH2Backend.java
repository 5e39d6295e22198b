package io.volumizer.infra.mongo;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;

/**
 * mongo-java-server's H2 backend, with unique indexes whose keys H2 compares as values.
 *
 * <p>The stock backend keeps index keys ({@link KeyValue}, not {@link Comparable}) under H2's {@link ObjectDataType},
 * which compares such objects by Java-serializing both on every comparison of a binary search: a profile of an
 * import put 78% of the server's time there. Here the keys are compared element by element in MongoDB's order, as
 * a real server compares BSON keys; they are still stored in H2's serialized form. The order of stored index pages
 * differs from the stock backend's, so a data file written by one must not be opened by the other.
 */
final class ComparableKeyH2Backend extends H2Backend {

    ComparableKeyH2Backend(MVStore store) {
        super(store);
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName, getCursorRegistry());
    }

    /**
     * Not static, and without a field of its own: the stock constructor already opens the indexes of a database
     * found in the file, through {@link #openOrCreateUniqueIndex}, before a field of this class would be assigned.
     * The enclosing backend is assigned before that constructor runs.
     */
    private final class Database extends H2Database {

        Database(String name, CursorRegistry cursors) {
            super(name, ComparableKeyH2Backend.this.getMvStore(), cursors);
        }

        @Override
        protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys,
                boolean sparse) {
            // The stock backend's map name, so that dropping the index or the collection removes this map too.
            MVStore store = ComparableKeyH2Backend.this.getMvStore();
            MVMap<KeyValue, Object> map = store.openMap(getFullCollectionNamespace(collectionName) + "._index_" + indexName,
                    new MVMap.Builder<KeyValue, Object>().keyType(new KeyType()));
            return new UniqueIndex(map, indexName, keys, sparse);
        }
    }

    /** What the stock H2 unique index does, on a map with comparable keys. */
    private static final class UniqueIndex extends AbstractUniqueIndex<Object> {

        private final MVMap<KeyValue, Object> map;

        UniqueIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
            super(name, keys, sparse);
            this.map = map;
        }

        @Override
        protected Object removeDocument(KeyValue key) {
            return map.remove(key);
        }

        @Override
        protected boolean putKeyPosition(KeyValue key, Object position) {
            return map.putIfAbsent(key, Missing.ofNullable(position)) == null;
        }

        @Override
        protected Iterable<Map.Entry<KeyValue, Object>> getIterable() {
            return map.entrySet();
        }

        @Override
        protected Object getPosition(KeyValue key) {
            return map.get(key);
        }

        @Override
        public long getCount() {
            return map.sizeAsLong();
        }

        @Override
        public long getDataSize() {
            return getCount();
        }
    }

    /** Index keys compared element by element in MongoDB's order; stored as H2 stores any serializable object. */
    static final class KeyType extends BasicDataType<KeyValue> {

        private static final ValueComparator ORDER = ValueComparator.ascWithoutListHandling();
        private final ObjectDataType storage = new ObjectDataType();

        @Override
        public int compare(KeyValue a, KeyValue b) {
            int size = Math.min(a.size(), b.size());
            for (int i = 0; i < size; i++) {
                int order = ORDER.compare(a.get(i), b.get(i));
                if (order != 0) {
                    return order;
                }
            }
            return Integer.compare(a.size(), b.size());
        }

        @Override
        public int getMemory(KeyValue key) {
            // An estimate, for H2's page sizes and cache: object headers plus the values' characters.
            int memory = 48;
            for (Object value : key) {
                memory += 16 + (value instanceof String text ? 2 * text.length() : 16);
            }
            return memory;
        }

        @Override
        public void write(WriteBuffer buffer, KeyValue key) {
            storage.write(buffer, key);
        }

        @Override
        public KeyValue read(ByteBuffer buffer) {
            return (KeyValue) storage.read(buffer);
        }

        @Override
        public KeyValue[] createStorage(int size) {
            return new KeyValue[size];
        }
    }
}
