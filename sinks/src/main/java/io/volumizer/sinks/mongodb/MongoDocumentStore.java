package io.volumizer.sinks.mongodb;

import static io.volumizer.sinks.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.sinks.DocumentFields.BLOB;
import static io.volumizer.sinks.DocumentFields.CREATED;
import static io.volumizer.sinks.DocumentFields.DELETED;
import static io.volumizer.sinks.DocumentFields.KEY;
import static io.volumizer.sinks.DocumentFields.MODIFIED;
import static io.volumizer.sinks.DocumentFields.NAME;
import static io.volumizer.sinks.DocumentFields.ORIGIN;
import static io.volumizer.sinks.DocumentFields.PARENT_ID;
import static io.volumizer.sinks.DocumentFields.PATH;
import static io.volumizer.sinks.DocumentFields.PROPERTIES;
import static io.volumizer.sinks.DocumentFields.REPOSITORY;
import static io.volumizer.sinks.DocumentFields.TITLE;
import static io.volumizer.sinks.DocumentFields.TYPE;
import static io.volumizer.sinks.DocumentFields.VERSION;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.bson.Document;
import org.bson.RawBsonDocument;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.WriteModel;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.BulkResult;
import io.volumizer.sinks.DocumentFields;
import io.volumizer.sinks.StoreUnavailableException;

/**
 * The repository's documents in MongoDB, one collection per repository, through the official driver only.
 *
 * <p>Writes are idempotent by document id and monotonic by version: a replayed event of the stored version is a
 * no-op, an older one is reported stale instead of overwriting, and a replacement is conditional on the version it
 * replaces. Deletes leave a tombstone carrying the version, for the same reason.
 */
public final class MongoDocumentStore {

    private static final int DUPLICATE_KEY = 11000;
    /** The unique (parentId, name) index: a name is taken once under a parent. */
    private static final String CHILDREN_INDEX = "children";
    private static final BulkWriteOptions UNORDERED = new BulkWriteOptions().ordered(false);

    private final MongoClient client;
    private final String database;
    private final Backoff backoff;
    private final java.util.Set<String> indexedRepositories = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public MongoDocumentStore(MongoClient client, String database, Backoff backoff) {
        this.client = client;
        this.database = database;
        this.backoff = backoff;
    }

    public MongoCollection<Document> collection(String repository) {
        return client.getDatabase(database).getCollection(repository);
    }

    /** The indexes navigation needs: children of a parent by name (unique), and descendants by ancestor. */
    public void ensureIndexes(String repository) {
        MongoCollection<Document> documents = collection(repository);
        documents.createIndex(Indexes.ascending(PARENT_ID, NAME), new IndexOptions().unique(true).name(CHILDREN_INDEX));
        documents.createIndex(Indexes.ascending(ANCESTOR_IDS), new IndexOptions().name("descendants"));
    }

    /** Writes a batch (unordered), retrying with backoff while the server is unreachable. */
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        Map<String, List<ImportedEvent>> byRepository = new LinkedHashMap<>();
        batch.forEach(e -> byRepository.computeIfAbsent(e.getDocument().getRepository(), r -> new ArrayList<>()).add(e));
        BulkResult<ImportedEvent> result = new BulkResult<>();
        byRepository.forEach((repository, events) -> write(repository, events, result));
        return result;
    }

    private void write(String repository, List<ImportedEvent> events, BulkResult<ImportedEvent> result) {
        if (indexedRepositories.add(repository)) {
            ensureIndexes(repository);
        }
        for (int attempt = 0; ; attempt++) {
            // Each attempt starts afresh: events an attempt wrote before failing are written (or found) again by the
            // next, and must be reported once.
            BulkResult<ImportedEvent> attemptResult = new BulkResult<>();
            try {
                writeOnce(collection(repository).withDocumentClass(RawBsonDocument.class), events, attemptResult);
                result.addAll(attemptResult);
                return;
            } catch (MongoException e) {
                if (attempt >= backoff.maxRetries()) {
                    throw new StoreUnavailableException("MongoDB unavailable after " + attempt + " retries: "
                            + e.getMessage(), e);
                }
                backoff.sleep(attempt + 1);
            }
        }
    }

    /**
     * Inserts the batch (unordered); only the documents that already exist are then read one by one (by id, an
     * indexed lookup) and replaced, by id, when older. The same version already stored is a replay: nothing to
     * write. A first import is thus pure inserts, with no read before the write.
     *
     * <p>Read-then-replace is safe because each id has one writer: the documents topic is keyed by parent id, so
     * every version of a document goes through the same import subtask, in order. The replace filters on the id
     * alone on purpose: a filter on (id, version) is not answered by an index on servers that only use an index
     * whose keys the query names exactly (the local MongoDB stand-in scans the whole collection for it).
     */
    private void writeOnce(MongoCollection<RawBsonDocument> documents, List<ImportedEvent> events,
            BulkResult<ImportedEvent> result) {
        List<WriteModel<RawBsonDocument>> inserts = new ArrayList<>(events.size());
        events.forEach(event -> inserts.add(new InsertOneModel<>(toBson(event))));
        List<ImportedEvent> existing = new ArrayList<>();
        boolean[] rejected = new boolean[events.size()];
        try {
            documents.bulkWrite(inserts, UNORDERED);
        } catch (MongoBulkWriteException e) {
            for (BulkWriteError error : e.getWriteErrors()) {
                rejected[error.getIndex()] = true;
                ImportedEvent event = events.get(error.getIndex());
                if (error.getCode() == DUPLICATE_KEY && error.getMessage().contains(CHILDREN_INDEX)) {
                    result.failed(event, "another document named '" + event.getDocument().getName()
                            + "' already exists under parent " + event.getDocument().getParentId());
                } else if (error.getCode() == DUPLICATE_KEY) {
                    existing.add(event);
                } else {
                    result.failed(event, "MongoDB error " + error.getCode() + ": " + error.getMessage());
                }
            }
        }
        for (int i = 0; i < rejected.length; i++) {
            if (!rejected[i]) {
                result.written(events.get(i));
            }
        }
        for (ImportedEvent event : existing) {
            replaceIfOlder(documents, event, result);
        }
    }

    private void replaceIfOlder(MongoCollection<RawBsonDocument> documents, ImportedEvent event,
            BulkResult<ImportedEvent> result) {
        DocumentEvent document = event.getDocument();
        RawBsonDocument stored = documents.find(Filters.eq(KEY, document.getId()))
                .projection(Projections.include(VERSION)).first();
        long version = stored == null ? -1 : stored.getInt64(VERSION).getValue();
        if (version == document.getVersion()) {
            result.written(event);
        } else if (version > document.getVersion()) {
            result.stale(event);
        } else {
            long matched = documents.replaceOne(Filters.eq(KEY, document.getId()), toBson(event)).getMatchedCount();
            if (matched == 1) {
                result.written(event);
            } else {
                result.stale(event); // deleted meanwhile by an operator: nothing to replace
            }
        }
    }

    /** The ancestry of a stored, not deleted document. */
    public Optional<Ancestry> ancestry(String repository, String id) {
        Document found = collection(repository).find(Filters.eq(KEY, id))
                .projection(Projections.include(ANCESTOR_IDS, PATH, DELETED)).first();
        if (found == null || isTombstone(found)) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>(found.getList(ANCESTOR_IDS, String.class));
        ids.add(id);
        return Optional.of(new Ancestry(ids, found.getString(PATH)));
    }

    /** The stored form ({@link StoredForm}): the event's fields, its ancestry, a tombstone flag; BSON as sent. */
    public static RawBsonDocument toBson(ImportedEvent event) {
        return StoredForm.of(event);
    }

    /** Whether a stored document is the tombstone of a delete. */
    public static boolean isTombstone(Document stored) {
        return Boolean.TRUE.equals(stored.getBoolean(DELETED));
    }

    /**
     * The stored form read back as the next event of {@code operation} on that document (the inverse of
     * {@link #toBson}, without the import's ancestry): what a writer changes and appends again.
     */
    public static DocumentEvent toEvent(Document stored, Operation operation) {
        Document blob = stored.get(BLOB, Document.class);
        Document origin = stored.get(ORIGIN, Document.class);
        return DocumentEvent.newBuilder().setOperation(operation).setRepository(stored.getString(REPOSITORY))
                .setId(stored.getString(KEY)).setParentId(stored.getString(PARENT_ID))
                .setType(stored.getString(TYPE)).setName(stored.getString(NAME))
                .setTitle(stored.getString(TITLE)).setCreated(stored.getDate(CREATED).toInstant())
                .setModified(stored.getDate(MODIFIED).toInstant())
                .setProperties(new LinkedHashMap<>(stored.get(PROPERTIES, Document.class)))
                .setBlob(blob == null ? null : BlobRef.newBuilder().setKey(blob.getString(DocumentFields.Blob.KEY))
                        .setMimeType(blob.getString(DocumentFields.Blob.MIME_TYPE))
                        .setFilename(blob.getString(DocumentFields.Blob.FILENAME))
                        .setDigest(blob.getString(DocumentFields.Blob.DIGEST))
                        .setLength(blob.getLong(DocumentFields.Blob.LENGTH)).build())
                .setEventTime(stored.getDate(MODIFIED).toInstant()).setVersion(stored.getLong(VERSION))
                .setOrigin(origin == null ? null : Origin.newBuilder()
                        .setSource(origin.getString(DocumentFields.Origin.SOURCE))
                        .setSeed(origin.getLong(DocumentFields.Origin.SEED))
                        .setIndex(origin.getLong(DocumentFields.Origin.INDEX)).build())
                .build();
    }
}
