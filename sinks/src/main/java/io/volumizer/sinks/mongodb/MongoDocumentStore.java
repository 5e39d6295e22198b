package io.volumizer.sinks.mongodb;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.bson.Document;
import org.bson.conversions.Bson;

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
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.BulkResult;
import io.volumizer.sinks.StoreUnavailableException;

/**
 * The repository's documents in MongoDB, one collection per repository, through the official driver only.
 *
 * <p>Writes are idempotent by document id and monotonic by version: an upsert matches {@code _id} and a version
 * not newer than its own, so a replayed older event finds no match, collides with the existing {@code _id} and is
 * reported stale instead of overwriting. Deletes leave a tombstone carrying the version, for the same reason.
 */
public final class MongoDocumentStore {

    private static final int DUPLICATE_KEY = 11000;
    private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
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
        documents.createIndex(Indexes.ascending("parentId", "name"), new IndexOptions().unique(true).name("children"));
        documents.createIndex(Indexes.ascending("ancestorIds"), new IndexOptions().name("descendants"));
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
        List<WriteModel<Document>> models = new ArrayList<>(events.size());
        for (ImportedEvent event : events) {
            DocumentEvent document = event.getDocument();
            Bson sameOrOlder = Filters.and(Filters.eq("_id", document.getId()),
                    Filters.lte("version", document.getVersion()));
            models.add(new ReplaceOneModel<>(sameOrOlder, toBson(event), UPSERT));
        }
        for (int attempt = 0; ; attempt++) {
            try {
                collection(repository).bulkWrite(models, UNORDERED);
                events.forEach(result::written);
                return;
            } catch (MongoBulkWriteException e) {
                boolean[] failed = new boolean[events.size()];
                for (BulkWriteError error : e.getWriteErrors()) {
                    failed[error.getIndex()] = true;
                    ImportedEvent event = events.get(error.getIndex());
                    if (error.getCode() == DUPLICATE_KEY && error.getMessage().contains("children")) {
                        result.failed(event, "another document named '" + event.getDocument().getName()
                                + "' already exists under parent " + event.getDocument().getParentId());
                    } else if (error.getCode() == DUPLICATE_KEY) {
                        result.stale(event);
                    } else {
                        result.failed(event, "MongoDB error " + error.getCode() + ": " + error.getMessage());
                    }
                }
                for (int i = 0; i < failed.length; i++) {
                    if (!failed[i]) {
                        result.written(events.get(i));
                    }
                }
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

    /** The ancestry of a stored, not deleted document. */
    public Optional<Ancestry> ancestry(String repository, String id) {
        Document found = collection(repository).find(Filters.eq("_id", id))
                .projection(Projections.include("ancestorIds", "path", "deleted")).first();
        if (found == null || Boolean.TRUE.equals(found.getBoolean("deleted"))) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>(found.getList("ancestorIds", String.class));
        ids.add(id);
        return Optional.of(new Ancestry(ids, found.getString("path")));
    }

    /** The stored form: the event's fields, its ancestry, and a tombstone flag for deletes. */
    public static Document toBson(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        Document bson = new Document("_id", document.getId())
                .append("repository", document.getRepository())
                .append("parentId", document.getParentId())
                .append("ancestorIds", event.getAncestorIds())
                .append("path", event.getPath())
                .append("type", document.getType())
                .append("name", document.getName())
                .append("title", document.getTitle())
                .append("created", Date.from(document.getCreated()))
                .append("modified", Date.from(document.getModified()))
                .append("version", document.getVersion())
                .append("properties", new Document(document.getProperties()))
                .append("importedAt", Date.from(event.getImportedAt()));
        BlobRef blob = document.getBlob();
        if (blob != null) {
            bson.append("blob", new Document("key", blob.getKey()).append("mimeType", blob.getMimeType())
                    .append("filename", blob.getFilename()).append("digest", blob.getDigest())
                    .append("length", blob.getLength()));
        }
        if (document.getOrigin() != null) {
            bson.append("origin", new Document("source", document.getOrigin().getSource())
                    .append("seed", document.getOrigin().getSeed()).append("index", document.getOrigin().getIndex()));
        }
        if (document.getOperation() == Operation.DELETE) {
            bson.append("deleted", true);
        }
        return bson;
    }

    public static Instant instant(Document bson, String field) {
        Date date = bson.getDate(field);
        return date == null ? null : date.toInstant();
    }
}
