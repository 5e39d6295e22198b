package io.volumizer.stores.mongodb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.bson.Document;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;

/**
 * The repositories' databases, opened: one client per MongoDB deployment, however many repositories it holds.
 * A repository is a collection of its database, and its files' texts a second one; the shared database also holds
 * the commands' records.
 */
public final class MongoRepositories implements AutoCloseable {

    /** A repository's collection of files' texts is named after it, with this suffix (no repository name has a dot). */
    private static final String FILE_TEXTS_SUFFIX = ".fileTexts";

    private final RepositoryDatabases databases;
    private final Map<String, MongoClient> clients = new LinkedHashMap<>();
    private final boolean owned;

    /** @param connect how a client of one connection string is made (timeouts, listeners); closed with this */
    public MongoRepositories(RepositoryDatabases databases, Function<String, MongoClient> connect) {
        this.databases = databases;
        this.owned = true;
        try {
            databases.uris().forEach(uri -> clients.put(uri, connect.apply(uri)));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private MongoRepositories(MongoClient client, String database) {
        this.databases = RepositoryDatabases.shared("", database);
        this.owned = false;
        clients.put("", client);
    }

    /** Every repository in one database of a client the caller keeps and closes. */
    public static MongoRepositories sharing(MongoClient client, String database) {
        return new MongoRepositories(client, database);
    }

    public MongoDatabase database(String repository) {
        return database(databases.location(repository));
    }

    public MongoCollection<Document> collection(String repository) {
        return database(repository).getCollection(repository);
    }

    /**
     * The repository's files' texts (live repositories), apart from its documents: a text, large and written once
     * its file is read, neither grows the documents every navigation reads nor waits on their writes.
     */
    public MongoCollection<Document> fileTexts(String repository) {
        return database(repository).getCollection(repository + FILE_TEXTS_SUFFIX);
    }

    /** The job's database: where repositories without a location of their own are, and the commands' records. */
    public MongoDatabase shared() {
        return database(databases.shared());
    }

    /** Each deployment's database that holds repositories, the shared one first (for health checks). */
    public List<MongoDatabase> all() {
        List<MongoDatabase> all = new ArrayList<>();
        all.add(shared());
        databases.own().values().stream().distinct().filter(location -> !location.equals(databases.shared()))
                .forEach(location -> all.add(database(location)));
        return all;
    }

    private MongoDatabase database(MongoLocation location) {
        return clients.get(location.uri()).getDatabase(location.database());
    }

    @Override
    public void close() {
        if (owned) {
            clients.values().forEach(MongoClient::close);
        }
    }
}
