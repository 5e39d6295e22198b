package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.KEY;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.bson.Document;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.api.internal.ApiException;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.DocumentFields;

/** Reads of stored documents from MongoDB (each repository's database), by id or by (parent, name): lookups a unique index answers. */
public final class Documents {

    private final MongoRepositories repositories;

    public Documents(MongoRepositories repositories) {
        this.repositories = repositories;
    }

    public MongoCollection<Document> collection(String repository) {
        return repositories.collection(checkRepository(repository));
    }

    /** The document unless absent or deleted (a tombstone). */
    public Optional<Document> find(String repository, String id) {
        return Optional.ofNullable(collection(repository).find(Filters.eq(KEY, id)).first()).filter(Documents::live);
    }

    /** Including tombstones: what a writer must compare versions with. */
    public Optional<Document> findAny(String repository, String id) {
        return Optional.ofNullable(collection(repository).find(Filters.eq(KEY, id)).first());
    }

    public Document require(String repository, String id) {
        return find(repository, id).orElseThrow(() -> notFound(List.of(repository), id));
    }

    /** The document in whichever of {@code repositories} holds it (ids are unique across a topology's). */
    public Optional<Document> find(List<String> repositories, String id) {
        for (String repository : repositories) {
            Optional<Document> found = find(repository, id);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /**
     * The document in whichever of {@code repositories} holds it, if {@code readable} lets the caller read it: a
     * document the caller may not read is not found either, so that the answer tells nothing of it.
     */
    public Document require(List<String> repositories, String id, Predicate<Document> readable) {
        return find(repositories, id).filter(readable).orElseThrow(() -> notFound(repositories, id));
    }

    private static ApiException notFound(List<String> repositories, String id) {
        return ApiException.notFound("no document '" + id + "' in " + (repositories.size() == 1
                ? "repository '" + repositories.get(0) + "'" : "repositories " + String.join(", ", repositories)));
    }

    public static boolean live(Document document) {
        return !MongoDocumentStore.isTombstone(document);
    }

    /** Repository names are collection and index names: lower-case letters, digits, '-' and '_'. */
    public static String checkRepository(String repository) {
        if (!RepositoryNames.isValid(repository)) {
            throw ApiException.badRequest("repository", "repository must be " + RepositoryNames.RULE + ", was '"
                    + repository + "'");
        }
        return repository;
    }
}
