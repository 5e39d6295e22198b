package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.KEY;

import java.util.List;
import java.util.Optional;

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
        return find(repository, id).orElseThrow(() -> ApiException.notFound("no document '" + id + "' in repository '"
                + repository + "'"));
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

    public Document require(List<String> repositories, String id) {
        if (repositories.size() == 1) {
            return require(repositories.get(0), id);
        }
        return find(repositories, id).orElseThrow(() -> ApiException.notFound("no document '" + id + "' in repositories "
                + String.join(", ", repositories)));
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
