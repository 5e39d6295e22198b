package io.volumizer.jobs.bulk.acl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.bson.Document;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;

import io.volumizer.stores.mongodb.MongoReads;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.DocumentFields;

/**
 * A repository's collection as the propagation reads it, each read retried with backoff while MongoDB is away. The
 * subtree is one query on {@code ancestorIds} (the {@code descendants} index of a real MongoDB), its cursor read in
 * batches as the propagation asks.
 */
final class MongoSubtree implements Propagation.Subtree {

    private static final int CURSOR_BATCH = 1000;

    private final MongoCollection<Document> documents;
    private final Backoff backoff;

    MongoSubtree(MongoCollection<Document> documents, Backoff backoff) {
        this.documents = documents;
        this.backoff = backoff;
    }

    @Override
    public Optional<Document> find(String id) {
        return retried("reading " + id, () -> Optional.ofNullable(documents.find(Filters.eq(DocumentFields.KEY, id)).first()));
    }

    @Override
    public List<Document> find(List<String> ids) {
        return retried("reading documents", () -> documents.find(Filters.in(DocumentFields.KEY, ids)).into(new ArrayList<>()));
    }

    /** A MongoDB error while the cursor is read fails the job: it restarts from its checkpoint, with a new round. */
    @Override
    public Iterator<Document> below(String folderId) {
        return retried("reading the subtree", () -> documents.find(Filters.and(Filters.eq(DocumentFields.ANCESTOR_IDS, folderId),
                Filters.ne(DocumentFields.DELETED, true))).projection(Projections.include(DocumentFields.PARENT_ID,
                DocumentFields.ANCESTOR_IDS, DocumentFields.VERSION, DocumentFields.ACL, DocumentFields.READ_ACL,
                DocumentFields.WRITE_ACL, DocumentFields.MANAGE_ACL, DocumentFields.BLOB))
                .batchSize(CURSOR_BATCH).iterator());
    }

    @Override
    public Map<String, Long> versions(List<String> ids) {
        return retried("reading versions", () -> {
            Map<String, Long> versions = new HashMap<>();
            for (Document stored : documents.find(Filters.in(DocumentFields.KEY, ids))
                    .projection(Projections.include(DocumentFields.VERSION))) {
                versions.put(stored.getString(DocumentFields.KEY), stored.get(DocumentFields.VERSION, Number.class).longValue());
            }
            return versions;
        });
    }

    private <T> T retried(String what, MongoReads.Read<T, RuntimeException> read) {
        return MongoReads.retried(backoff, what, read);
    }
}
