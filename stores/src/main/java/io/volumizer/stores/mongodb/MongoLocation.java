package io.volumizer.stores.mongodb;

import java.io.Serializable;

import com.mongodb.ConnectionString;

/**
 * Where a repository's documents are: a MongoDB deployment (its connection string) and a database in it. A
 * topology may leave either out, and then the job's {@code --mongodb-uri} or {@code --mongodb-database} is meant
 * ({@link #over}).
 *
 * @param uri      a connection string, which may hold credentials: never printed ({@link #toString})
 * @param database the database that holds one collection per repository
 */
public record MongoLocation(String uri, String database) implements Serializable {

    /** This location, its parts left out taken from {@code defaults}. */
    public MongoLocation over(MongoLocation defaults) {
        return new MongoLocation(uri == null ? defaults.uri : uri, database == null ? defaults.database : database);
    }

    /** The hosts and database, without the connection string's credentials or options. */
    @Override
    public String toString() {
        String hosts = uri == null ? "the job's MongoDB" : String.join(",", new ConnectionString(uri).getHosts());
        return "database '" + (database == null ? "the job's" : database) + "' at " + hosts;
    }
}
