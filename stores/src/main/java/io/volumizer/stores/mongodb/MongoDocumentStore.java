package io.volumizer.stores.mongodb;

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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.bson.Document;
import org.bson.RawBsonDocument;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;

import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Origin;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.StoreUnavailableException;

/**
 * The repositories' documents in MongoDB, one collection per repository in the repository's database, through the
 * official driver only.
 *
 * <p>Writes are idempotent by document id and monotonic by version: a replayed event of the stored version is a
 * no-op, an older one is reported stale instead of overwriting, and a replacement is conditional on the version it
 * replaces. Deletes leave a tombstone carrying the version, for the same reason.
 */
public final class MongoDocumentStore {

    private static final int DUPLICATE_KEY = 11000;
    /**
     * Write errors that are the document's own fault, so that writing it again cannot succeed: a bad or unparsable
     * value, a type mismatch, a field name a document cannot have, a document or index key too large, a failed schema
     * validation. Every other error is the store's (a write concern not met, a primary stepping down, a shutdown):
     * the write is retried, and never dead-letters a good document.
     */
    private static final Set<Integer> DOCUMENT_FAULTS = Set.of(2, 9, 14, 52, 55, 56, 57, 10334, 17280, 17419, 121);
    /** The unique (parentId, name) index: a name is taken once under a parent. */
    private static final String CHILDREN_INDEX = "children";
    private static final BulkWriteOptions UNORDERED = new BulkWriteOptions().ordered(false);
    private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);

    private final MongoRepositories repositories;
    private final Backoff backoff;
    private final Set<String> indexedRepositories = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public MongoDocumentStore(MongoRepositories repositories, Backoff backoff) {
        this.repositories = repositories;
        this.backoff = backoff;
    }

    public MongoCollection<Document> collection(String repository) {
        return repositories.collection(repository);
    }

    /**
     * The indexes navigation needs, children of a parent by name (unique) and descendants by ancestor, and the one a
     * reindex catches up with: documents by when they were imported; and, sparse, the documents a bulk command changed
     * last, which its status counts as applied.
     */
    public void ensureIndexes(String repository) {
        MongoCollection<Document> documents = collection(repository);
        documents.createIndex(Indexes.ascending(PARENT_ID, NAME), new IndexOptions().unique(true).name(CHILDREN_INDEX));
        documents.createIndex(Indexes.ascending(ANCESTOR_IDS), new IndexOptions().name("descendants"));
        documents.createIndex(Indexes.ascending(IMPORTED_AT), new IndexOptions().name("recent"));
        documents.createIndex(Indexes.ascending(ORIGIN + "." + DocumentFields.Origin.COMMAND),
                new IndexOptions().sparse(true).name("changed-by-command"));
    }

    /** Writes a batch (unordered), retrying with backoff while the server is unreachable. */
    public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
        BulkResult<ImportedEvent> result = new BulkResult<>();
        byRepository(batch).forEach((repository, events) -> write(repository, events, result));
        return result;
    }

    private void write(String repository, List<ImportedEvent> events, BulkResult<ImportedEvent> result) {
        if (indexedRepositories.add(repository)) {
            ensureIndexes(repository);
        }
        // Each attempt starts afresh: events an attempt wrote before failing are written (or found) again by the
        // next, and must be reported once.
        result.addAll(retried(() -> {
            BulkResult<ImportedEvent> attemptResult = new BulkResult<>();
            writeOnce(collection(repository).withDocumentClass(RawBsonDocument.class), events, attemptResult);
            return attemptResult;
        }, result::retried));
    }

    /**
     * Stores each event's file text in its repository's collection of texts ({@link MongoRepositories#fileTexts}),
     * with the version it was read from, if the document is still of that version (a newer version or a delete holds
     * its own, or none yet), so that a reindex reads it back with the document ({@link #fileTexts}) rather than
     * reading the file again. The documents are read first, by id (a filter the local stand-in serves from its index),
     * then each text written by id alone: one that a newer version overtakes in between is not that version's
     * ({@link #fileTexts} checks), and neither is an older version's text that two writers' race lets replace a newer
     * one's: a reindex then reads that file again. (A filter on the version too would close that race, but the local
     * stand-in scans the whole collection for it: quadratic, it stalled the text job within a minute.) Retried with
     * backoff while the server is unreachable; a text the server refuses as the document's fault is left out.
     *
     * @return the events whose document is still of their version: only those have a text to index (a late text of
     *         a deleted document must not bring it back into an index whose delete is forgotten)
     */
    public List<ImportedEvent> storeFileTexts(List<ImportedEvent> batch) {
        List<ImportedEvent> current = new ArrayList<>();
        byRepository(batch).forEach((repository, events) -> {
            List<ImportedEvent> ofTheirVersion = retried(() -> ofTheirVersion(repository, events));
            List<WriteModel<Document>> texts = ofTheirVersion.stream().<WriteModel<Document>>map(event ->
                    new ReplaceOneModel<>(Filters.eq(KEY, event.getDocument().getId()),
                            new Document(KEY, event.getDocument().getId())
                                    .append(DocumentFields.FileText.VERSION, event.getDocument().getVersion())
                                    .append(DocumentFields.FileText.TEXT, event.getFileText()), UPSERT)).toList();
            if (!texts.isEmpty()) {
                retried(() -> {
                    try {
                        repositories.fileTexts(repository).bulkWrite(texts, UNORDERED);
                    } catch (MongoBulkWriteException e) {
                        if (e.getWriteConcernError() != null || !e.getWriteErrors().stream()
                                .allMatch(error -> DOCUMENT_FAULTS.contains(error.getCode()))) {
                            throw e;
                        }
                    }
                    return null;
                });
            }
            current.addAll(ofTheirVersion);
        });
        return current;
    }

    /** A batch's events by their repository, in the batch's order. */
    private static Map<String, List<ImportedEvent>> byRepository(List<ImportedEvent> batch) {
        Map<String, List<ImportedEvent>> byRepository = new LinkedHashMap<>();
        batch.forEach(e -> byRepository.computeIfAbsent(e.getDocument().getRepository(), r -> new ArrayList<>()).add(e));
        return byRepository;
    }

    /** The events whose document is stored, not deleted, at their version. */
    private List<ImportedEvent> ofTheirVersion(String repository, List<ImportedEvent> events) {
        Map<String, Long> versions = new HashMap<>();
        collection(repository).find(Filters.in(KEY, events.stream().map(e -> e.getDocument().getId()).toList()))
                .projection(Projections.include(VERSION, DELETED)).forEach(stored -> {
                    if (!isTombstone(stored)) {
                        versions.put(stored.getString(KEY), stored.getLong(VERSION));
                    }
                });
        return events.stream().filter(e -> Long.valueOf(e.getDocument().getVersion())
                .equals(versions.get(e.getDocument().getId()))).toList();
    }

    /** A read or write of this store, retried with backoff while the server is unreachable. */
    private <T> T retried(Supplier<T> operation) {
        return retried(operation, () -> { });
    }

    /** {@link #retried(Supplier)}, telling {@code onRetry} before each new attempt; fails past the retries. */
    private <T> T retried(Supplier<T> operation, Runnable onRetry) {
        for (int attempt = 0; ; attempt++) {
            try {
                return operation.get();
            } catch (MongoException e) {
                onRetry.run();
                if (attempt >= backoff.maxRetries()) {
                    throw new StoreUnavailableException("MongoDB unavailable after " + attempt + " retries: "
                            + e.getMessage(), e);
                }
                backoff.sleep(attempt + 1);
            }
        }
    }

    /**
     * Inserts the batch (unordered); only the documents refused as duplicates are then read one by one and settled
     * ({@link #settleDuplicate}). A first import is thus pure inserts, with no read before the write. An error that is
     * the document's own fault ({@link #DOCUMENT_FAULTS}) fails that document; any other (a write concern not met, a
     * primary stepping down, a connection lost) fails the attempt, which is retried whole: what it wrote is then
     * found again, as a replay.
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
        List<ImportedEvent> duplicates = new ArrayList<>();
        boolean[] rejected = new boolean[events.size()];
        try {
            documents.bulkWrite(inserts, UNORDERED);
        } catch (MongoBulkWriteException e) {
            if (e.getWriteConcernError() != null) {
                throw e;
            }
            for (BulkWriteError error : e.getWriteErrors()) {
                if (error.getCode() != DUPLICATE_KEY && !DOCUMENT_FAULTS.contains(error.getCode())) {
                    throw e;
                }
            }
            for (BulkWriteError error : e.getWriteErrors()) {
                rejected[error.getIndex()] = true;
                ImportedEvent event = events.get(error.getIndex());
                if (error.getCode() == DUPLICATE_KEY) {
                    duplicates.add(event);
                } else {
                    result.failed(event, ReasonClass.REFUSED_BY_STORE, refused(error.getCode(), error.getMessage()));
                }
            }
        }
        for (int i = 0; i < rejected.length; i++) {
            if (!rejected[i]) {
                result.written(events.get(i));
            }
        }
        for (ImportedEvent event : duplicates) {
            settleDuplicate(documents, event, result);
        }
    }

    /**
     * An insert refused as a duplicate. Which unique index the server names is its own choice (the local stand-in,
     * after a restart, names (parentId, name) for an id already stored), so what is stored decides: the same id is
     * this document, replayed or at another version; only another id under that name is a conflict.
     */
    private void settleDuplicate(MongoCollection<RawBsonDocument> documents, ImportedEvent event,
            BulkResult<ImportedEvent> result) {
        DocumentEvent document = event.getDocument();
        RawBsonDocument stored = documents.find(Filters.eq(KEY, document.getId()))
                .projection(Projections.include(VERSION)).first();
        RawBsonDocument named = stored != null ? null : byName(documents, document);
        if (named != null && !isSameDocument(named, document)) {
            result.failed(event, ReasonClass.NAME_TAKEN, nameTaken(document, named));
            return;
        }
        if (stored == null && named == null) {
            // Neither the id nor the name is taken any more: the holder went in between. The attempt is retried.
            throw new MongoException("document " + document.getId() + " was refused as a duplicate, and nothing holds"
                    + " its id or its name now");
        }
        replaceIfOlder(documents, event, (stored != null ? stored : named).getInt64(VERSION).getValue(), result);
    }

    /** The same version is a replay: written already, and still passed on. An older one is replaced by id. */
    private void replaceIfOlder(MongoCollection<RawBsonDocument> documents, ImportedEvent event, long storedVersion,
            BulkResult<ImportedEvent> result) {
        DocumentEvent document = event.getDocument();
        if (storedVersion == document.getVersion()) {
            result.written(event);
        } else if (storedVersion > document.getVersion()) {
            result.stale(event);
        } else {
            try {
                long matched = documents.replaceOne(Filters.eq(KEY, document.getId()), toBson(event)).getMatchedCount();
                if (matched == 1) {
                    result.written(event);
                } else {
                    result.stale(event); // deleted meanwhile by an operator: nothing to replace
                }
            } catch (MongoWriteException e) {
                RawBsonDocument named = e.getCode() == DUPLICATE_KEY ? byName(documents, document) : null;
                boolean taken = named != null && !isSameDocument(named, document);
                if (!taken && !DOCUMENT_FAULTS.contains(e.getCode())) {
                    throw e;
                }
                if (taken) {
                    result.failed(event, ReasonClass.NAME_TAKEN, nameTaken(document, named));
                } else {
                    result.failed(event, ReasonClass.REFUSED_BY_STORE, refused(e.getCode(), e.getMessage()));
                }
            }
        }
    }

    /** The stored document under the same parent with the same name, if any (the unique (parentId, name) index). */
    private static RawBsonDocument byName(MongoCollection<RawBsonDocument> documents, DocumentEvent document) {
        // Exactly the keys of the index, as a plain document: servers that match an index only on a query naming
        // exactly its keys (the local stand-in) answer it from the index.
        return documents.find(new Document(PARENT_ID, document.getParentId()).append(NAME, document.getName()))
                .projection(Projections.include(KEY, VERSION, DELETED)).first();
    }

    private static boolean isSameDocument(RawBsonDocument stored, DocumentEvent document) {
        return stored.getString(KEY).getValue().equals(document.getId());
    }

    private static String refused(int code, String message) {
        return "MongoDB refused the document (error " + code + "): " + message;
    }

    private static String nameTaken(DocumentEvent document, RawBsonDocument holder) {
        boolean deleted = holder.containsKey(DELETED) && holder.getBoolean(DELETED).getValue();
        return "another document named '" + document.getName() + "' already exists under parent "
                + document.getParentId() + ": " + (deleted ? "deleted document " : "document ")
                + holder.getString(KEY).getValue();
    }

    /** The ancestry of a stored, not deleted document, with the effective ACL the import stored. */
    public Optional<Ancestry> ancestry(String repository, String id) {
        Document found = collection(repository).find(Filters.eq(KEY, id))
                .projection(Projections.include(ANCESTOR_IDS, PATH, READ_ACL, WRITE_ACL, MANAGE_ACL, DELETED, VERSION)).first();
        if (found == null || isTombstone(found)) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>(found.getList(ANCESTOR_IDS, String.class));
        ids.add(id);
        return Optional.of(new Ancestry(ids, found.getString(PATH), StoredForm.effectiveAcl(found),
                found.get(VERSION, Number.class).longValue()));
    }

    /** The stored form ({@link StoredForm}): the event's fields, its ancestry, a tombstone flag; BSON as sent. */
    public static RawBsonDocument toBson(ImportedEvent event) {
        return StoredForm.of(event);
    }

    /** The document's own ACL as stored; null if it has none. */
    public static Acl ownAcl(Document stored) {
        return StoredForm.acl(stored);
    }

    /** The effective ACL stored with a document; null for one stored before ACLs. */
    public static EffectiveAcl effectiveAcl(Document stored) {
        return StoredForm.effectiveAcl(stored);
    }

    /** Whether a stored document is the tombstone of a delete. */
    public static boolean isTombstone(Document stored) {
        return Boolean.TRUE.equals(stored.getBoolean(DELETED));
    }

    /**
     * A stored document as the imported event the index stage takes (a tombstone as a delete), with its file's text
     * ({@link #fileTexts}, null: none stored): what a reindex reads back from MongoDB.
     */
    public static ImportedEvent toImported(Document stored, String fileText) {
        DocumentEvent document = toEvent(stored, isTombstone(stored) ? Operation.DELETE : Operation.UPDATE);
        return ImportedEvent.newBuilder().setDocument(document)
                .setAncestorIds(new ArrayList<>(stored.getList(ANCESTOR_IDS, String.class)))
                .setPath(stored.getString(PATH)).setImportedAt(stored.getDate(IMPORTED_AT).toInstant())
                .setEffectiveAcl(StoredForm.effectiveAcl(stored)).setFileText(fileText).build();
    }

    /**
     * The texts stored ({@link #storeFileTexts}) of these stored documents' files, by document id, each only if it
     * was read from the stored version's file: one read in one query from {@code texts}, the collection of
     * {@link MongoRepositories#fileTexts}. A tombstone has none.
     */
    public static Map<String, String> fileTexts(MongoCollection<Document> texts, List<Document> stored) {
        Map<String, Object> versions = new HashMap<>();
        stored.stream().filter(document -> !isTombstone(document) && document.get(KEY) instanceof String)
                .forEach(document -> versions.put(document.getString(KEY), document.get(VERSION)));
        Map<String, String> read = new HashMap<>();
        if (!versions.isEmpty()) {
            texts.find(Filters.in(KEY, versions.keySet())).forEach(text -> {
                if (text.get(KEY) instanceof String id && text.get(DocumentFields.FileText.TEXT) instanceof String body
                        && versions.get(id) != null && versions.get(id).equals(text.get(DocumentFields.FileText.VERSION))) {
                    read.put(id, body);
                }
            });
        }
        return read;
    }

    /**
     * The stored form read back as the next event of {@code operation} on that document (the inverse of
     * {@link #toBson}, without the import's ancestry and effective ACL; with the document's own ACL): what a writer
     * changes and appends again.
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
                        .setIndex(origin.getLong(DocumentFields.Origin.INDEX))
                        .setCommand(origin.getString(DocumentFields.Origin.COMMAND))
                        .setFile(origin.getString(DocumentFields.Origin.FILE)).build())
                .setAcl(StoredForm.acl(stored)).build();
    }
}
