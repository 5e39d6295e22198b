package io.volumizer.infra.mongo;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.EmptyIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;

/**
 * mongo-java-server's H2 backend, with unique indexes whose keys H2 compares as values.
 *
 * <p>The stock backend keeps index keys ({@link KeyValue}, not {@link Comparable}) under H2's {@link ObjectDataType},
 * which compares such objects by Java-serializing both on every comparison of a binary search: a profile of an
 * import put 78% of the server's time there. Here the keys are compared element by element in MongoDB's order, as
 * a real server compares BSON keys; they are still stored in H2's serialized form. The order of stored index pages
 * differs from the stock backend's, so a data file written by one must not be opened by the other.
 *
 * <p>A unique single-field index also serves range queries ({@code $gt, $gte, $lt, $lte}) in key order, and a
 * query sorted by {@code _id} alone reads the {@code _id} index in order instead of sorting every match in memory:
 * the stock backend scans the whole collection for a range and sorts it, which made each {@code _id} range of a
 * reindex cost a full scan. Likewise a compound unique index serves an equality on its first field, in the order
 * of its second: one folder's children by name.
 */
final class ComparableKeyH2Backend extends H2Backend {

    /** The pipeline of the driver's {@code countDocuments()} without a filter, skip or limit. */
    private static final List<Document> COUNT_ALL = List.of(new Document("$match", new Document()),
            new Document("$group", new Document("_id", 1).append("n", new Document("$sum", 1))));

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

        /**
         * The driver's count of a whole collection ({@code countDocuments()} without a filter) is an aggregation that
         * groups every document: the stock backend read and deserialized each one, minutes at millions of documents,
         * where MongoDB counts index keys. The collection's size answers it; any other aggregation runs as before.
         */
        @Override
        public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver resolver,
                Oplog oplog) {
            if (command.equals("aggregate") && query.get(command) instanceof String name
                    && COUNT_ALL.equals(query.get("pipeline"))) {
                MongoCollection<Object> collection = resolveCollection(name, false);
                long count = collection instanceof Collection stored ? stored.size() : 0;
                List<Document> batch = count == 0 ? List.of()
                        : List.of(new Document("_id", 1).append("n", count <= Integer.MAX_VALUE ? (Object) (int) count
                                : (Object) count));
                Document cursor = new Document("id", 0L).append("ns", getDatabaseName() + "." + name)
                        .append("firstBatch", batch);
                return new Document("cursor", cursor).append("ok", 1.0);
            }
            return super.handleCommand(channel, command, query, resolver, oplog);
        }

        /**
         * The stock backend keeps no secondary index (it answers their queries by a scan), yet it read every document
         * of a collection into the empty placeholder, twice, each time it opened one: a restart with a million
         * documents and three secondary indexes spent minutes before it listened.
         */
        @Override
        protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys,
                boolean sparse) {
            return new EmptyIndex<>(indexName, keys) {
                @Override
                public boolean isEmpty() {
                    return false; // nothing to build from the documents
                }
            };
        }

        @Override
        protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
            // The stock backend's map names, so that files written before this class stay readable.
            MVStore store = ComparableKeyH2Backend.this.getMvStore();
            String namespace = getFullCollectionNamespace(collectionName);
            return new Collection(this, collectionName, options, store.openMap("databases." + namespace),
                    store.openMap("meta." + namespace), getCursorRegistry());
        }
    }

    /**
     * A collection whose queries sorted by {@code _id} (alone, ascending) read the {@code _id} index in order, and
     * whose aggregations read their documents as a stream: the stock backend collected every document of the
     * collection into one list first, so counting 250,000 documents ran the server out of memory.
     */
    private static final class Collection extends H2Collection {

        /** Where the stock collection keeps the sum of its documents' sizes, as a long. */
        private static final String DATA_SIZE = "dataSize";

        private final MVMap<Object, Document> data;
        private final MVMap<String, Object> meta;

        Collection(MongoDatabase database, String name, CollectionOptions options, MVMap<Object, Document> data,
                MVMap<String, Object> meta, CursorRegistry cursors) {
            super(database, name, options, data, meta, cursors);
            this.data = data;
            this.meta = meta;
        }

        /**
         * The stock statistics read the data size as an int: past 2 GiB, collStats reported a negative size. MongoDB
         * reports it as a number that may be a long.
         */
        @Override
        public Document getStats() {
            Document stats = super.getStats();
            long size = meta.get(DATA_SIZE) instanceof Number bytes ? bytes.longValue() : 0;
            int count = count();
            stats.put("size", size);
            stats.put("avgObjSize", count > 0 ? size / count : 0);
            return stats;
        }

        long size() {
            return data.sizeAsLong();
        }

        @Override
        public Stream<Document> queryAllAsStream() {
            VersionHold hold = new VersionHold(data.getStore());
            Iterator<Document> documents = data.values().iterator();
            Iterator<Document> releasing = new Iterator<>() {
                @Override
                public boolean hasNext() {
                    boolean more = documents.hasNext();
                    if (!more) {
                        hold.close();
                    }
                    return more;
                }

                @Override
                public Document next() {
                    return documents.next();
                }
            };
            // A stream left unread to its end and never closed releases its hold when it is collected.
            VersionHold.CLEANER.register(releasing, hold::close);
            return StreamSupport.stream(Spliterators.spliteratorUnknownSize(releasing,
                    Spliterator.ORDERED | Spliterator.NONNULL), false).onClose(hold::close);
        }

        @Override
        protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                Document projection) {
            try (VersionHold hold = new VersionHold(data.getStore())) {
                return queryDocumentsHeld(query, orderBy, skip, limit, batchSize, projection);
            }
        }

        private QueryResult queryDocumentsHeld(Document query, Document orderBy, int skip, int limit, int batchSize,
                Document projection) {
            if (orderBy != null && orderBy.size() == 1 && isAscending(orderBy.get(getIdField()))) {
                for (Index<Object> index : getIndexes()) {
                    if (index instanceof UniqueIndex ids && ids.isOnlyOn(getIdField())
                            && ids.readsInOrder(query)) {
                        // Matches arrive in _id order: no sort, and a limit stops the read.
                        return matchDocuments(query, ids.positionsInOrder(query), null, skip, limit, batchSize, projection);
                    }
                }
            }
            if (orderBy != null && orderBy.size() == 1 && isAscending(orderBy.values().iterator().next())) {
                for (Index<Object> index : getIndexes()) {
                    if (index instanceof UniqueIndex compound && compound.sortsPrefixMatchesBy(query,
                            orderBy.keySet().iterator().next())) {
                        // Children of one parent arrive by name: no sort, and a limit stops the read.
                        return matchDocuments(query, compound.getPositions(query), null, skip, limit, batchSize,
                                projection);
                    }
                }
            }
            return super.queryDocuments(query, orderBy, skip, limit, batchSize, projection);
        }

        private static boolean isAscending(Object order) {
            return order instanceof Number number && number.intValue() == 1;
        }
    }

    /** What the stock H2 unique index does, on a map with comparable keys, and ranges of a one-field index. */
    private static final class UniqueIndex extends AbstractUniqueIndex<Object> {

        private static final Set<String> RANGE_OPERATORS = Set.of("$gt", "$gte", "$lt", "$lte");
        private static final KeyType ORDER = new KeyType();

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
        public synchronized boolean canHandle(Document query) {
            return super.canHandle(query) || isRange(query) || isPrefixEquality(query);
        }

        @Override
        public synchronized Iterable<Object> getPositions(Document query) {
            if (super.canHandle(query)) {
                return super.getPositions(query);
            }
            return isRange(query) ? positionsInOrder(query) : positionsWithPrefix(query.get(keys().get(0)));
        }

        /**
         * {@code {first: value, ...}} on a compound index's first field, any other conditions aside: the documents
         * whose key starts with the value, as a real server's index prefix serves them. The stock backend scans the
         * whole collection for it, which made listing one folder's children cost a read of every document.
         */
        private boolean isPrefixEquality(Document query) {
            if (!isCompoundIndex() || !query.containsKey(keys().get(0))) {
                return false;
            }
            Object value = query.get(keys().get(0));
            return value != null && !(value instanceof Document condition
                    && condition.keySet().stream().anyMatch(key -> key.startsWith("$")));
        }

        /** Whether the matches of a prefix query come from this index already sorted by {@code field} ascending. */
        boolean sortsPrefixMatchesBy(Document query, String field) {
            return isPrefixEquality(query) && keys().size() > 1 && keys().get(1).equals(field)
                    && !super.canHandle(query);
        }

        private Iterable<Object> positionsWithPrefix(Object value) {
            KeyValue prefix = new KeyValue(value).normalized();
            return positionsFrom(prefix, key -> false, key -> ORDER.compare(new KeyValue(key.get(0)), prefix) != 0);
        }

        /**
         * The positions of the keys from {@code from} on (every key when null), in key order, read lazily until a key
         * {@code ends} the read; those {@code skipped} are left out.
         */
        private Iterable<Object> positionsFrom(KeyValue from, Predicate<KeyValue> skipped, Predicate<KeyValue> ends) {
            return () -> new Iterator<>() {
                private final Cursor<KeyValue, Object> cursor = map.cursor(from);
                private Object next = advance();

                private Object advance() {
                    while (cursor.hasNext()) {
                        KeyValue key = cursor.next();
                        if (ends.test(key)) {
                            return null;
                        }
                        if (!skipped.test(key)) {
                            return cursor.getValue();
                        }
                    }
                    return null;
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public Object next() {
                    if (next == null) {
                        throw new NoSuchElementException();
                    }
                    Object position = next;
                    next = advance();
                    return position;
                }
            };
        }

        boolean isOnlyOn(String field) {
            return keys().equals(List.of(field));
        }

        /** Whether {@link #positionsInOrder} serves the query: everything, or a range of this one-field index. */
        boolean readsInOrder(Document query) {
            return query.isEmpty() || isRange(query);
        }

        /** {@code {field: {$gt|$gte|$lt|$lte: value, ...}}} on this index's only field. */
        private boolean isRange(Document query) {
            if (isCompoundIndex() || !query.keySet().equals(keySet())) {
                return false;
            }
            Object condition = query.get(keys().get(0));
            return condition instanceof Document operators && !operators.isEmpty()
                    && RANGE_OPERATORS.containsAll(operators.keySet());
        }

        /**
         * The positions of the documents in the range (or of all), in key order, read lazily: the collection still
         * matches each document against the whole query, so positions just outside a bound are filtered there.
         */
        Iterable<Object> positionsInOrder(Document query) {
            Document range = query.isEmpty() ? new Document() : (Document) query.get(keys().get(0));
            Object lower = range.containsKey("$gte") ? range.get("$gte") : range.get("$gt");
            Object upper = range.containsKey("$lt") ? range.get("$lt") : range.get("$lte");
            KeyValue from = lower == null ? null : new KeyValue(lower).normalized();
            KeyValue to = upper == null ? null : new KeyValue(upper).normalized();
            boolean fromExclusive = range.containsKey("$gt") && !range.containsKey("$gte");
            boolean toInclusive = range.containsKey("$lte") && !range.containsKey("$lt");
            return positionsFrom(from, key -> fromExclusive && ORDER.compare(key, from) == 0, key -> {
                int order = to == null ? -1 : ORDER.compare(key, to);
                return order > 0 || (order == 0 && !toInclusive);
            });
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
