package io.volumizer.jobs.csv;

import java.util.LinkedHashMap;
import java.util.Map;

import org.bson.Document;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;

import io.volumizer.stores.DocumentFields;

/**
 * The id of a row's parent, named by path: the repository's folder at that path, found from the root by its
 * children's names (the unique children index), or else the id a row of the import gives the folder
 * ({@link CsvDocuments#pathId}): a folder the same files create. A parent that is neither waits in the import
 * until its wait runs out, and is dead-lettered there as not found. Found paths are cached; missing ones are
 * looked up again, since the files may be creating them.
 */
final class ParentPaths {

    private static final int CACHED = 10_000;

    private final MongoCollection<Document> documents;
    private final String repository;
    private final Map<String, String> found = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > CACHED;
        }
    };

    ParentPaths(MongoCollection<Document> documents, String repository) {
        this.documents = documents;
        this.repository = repository;
    }

    /** The id of the folder at {@code path} ("" for the repository's root). */
    String idOf(String path) {
        String cached = found.get(path);
        if (cached != null) {
            return cached;
        }
        String id = path.isEmpty() ? child(null, null) : null;
        if (!path.isEmpty()) {
            int slash = path.lastIndexOf('/');
            String parent = idOf(slash < 0 ? "" : path.substring(0, slash));
            id = child(parent, path.substring(slash + 1));
        }
        if (id == null) {
            return CsvDocuments.pathId(repository, path);
        }
        found.put(path, id);
        return id;
    }

    /** The id of {@code parentId}'s child named {@code name}; the root's for a null parent; null when none is. */
    private String child(String parentId, String name) {
        Document child = documents.find(parentId == null ? Filters.eq(DocumentFields.PARENT_ID, null)
                        : Filters.and(Filters.eq(DocumentFields.PARENT_ID, parentId), Filters.eq(DocumentFields.NAME, name)))
                .projection(Projections.include(DocumentFields.KEY)).first();
        return child == null ? null : child.getString(DocumentFields.KEY);
    }
}
