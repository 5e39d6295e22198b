package io.volumizer.stores.mongodb;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which MongoDB database holds each repository: the shared one (the job's {@code --mongodb-uri} and {@code
 * --mongodb-database}, which also keeps the commands' records), unless the topology gives a repository a location
 * of its own. Serialized with a job graph; {@link MongoRepositories} opens it.
 *
 * @param shared the job's database
 * @param own    the repositories that have their own, complete locations
 */
public record RepositoryDatabases(MongoLocation shared, Map<String, MongoLocation> own) implements Serializable {

    /** Every repository in the shared database. */
    public static RepositoryDatabases shared(String uri, String database) {
        return new RepositoryDatabases(new MongoLocation(uri, database), Map.of());
    }

    /** @param partial the topology's locations, whose parts left out are the shared one's */
    public static RepositoryDatabases of(MongoLocation shared, Map<String, MongoLocation> partial) {
        Map<String, MongoLocation> own = new LinkedHashMap<>();
        partial.forEach((repository, location) -> own.put(repository, location.over(shared)));
        return new RepositoryDatabases(shared, Map.copyOf(own));
    }

    public MongoLocation location(String repository) {
        return own.getOrDefault(repository, shared);
    }

    /** The connection strings to open, the shared one first. */
    Set<String> uris() {
        Set<String> uris = new LinkedHashSet<>();
        uris.add(shared.uri());
        own.values().forEach(location -> uris.add(location.uri()));
        return uris;
    }
}
