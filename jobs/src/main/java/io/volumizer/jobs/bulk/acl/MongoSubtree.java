package io.volumizer.jobs.bulk.acl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.MongoException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;

import io.volumizer.stores.Backoff;
import io.volumizer.stores.DocumentFields;

/** A repository's collection as the propagation reads it, each read retried with backoff while MongoDB is away. */
final class MongoSubtree implements Propagation.Subtree {

    private static final Logger LOG = LoggerFactory.getLogger(MongoSubtree.class);

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
    public List<Document> children(List<String> parentIds) {
        return retried("reading children", () -> documents.find(Filters.and(Filters.in(DocumentFields.PARENT_ID, parentIds),
                Filters.ne(DocumentFields.DELETED, true))).into(new ArrayList<>()));
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

    private <T> T retried(String what, Supplier<T> read) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.get();
            } catch (MongoException e) {
                if (attempt > backoff.maxRetries()) {
                    throw e; // the job restarts from its checkpoint, and the propagation from a new round
                }
                LOG.warn("{} failed ({}), retry {}", what, e.getMessage(), attempt);
                backoff.sleep(attempt);
            }
        }
    }
}
