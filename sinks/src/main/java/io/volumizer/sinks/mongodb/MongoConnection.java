package io.volumizer.sinks.mongodb;

import java.io.Serializable;

import org.apache.flink.api.common.functions.RuntimeContext;

import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;

import io.volumizer.options.pipeline.RepositoryServicesOptions;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.mongodb.RepositoryDatabases;

/**
 * The repositories' databases as an operator reaches them: serialized with the job graph, opened once per subtask
 * with the official driver (one client per deployment), closed with the subtask.
 */
public final class MongoConnection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RepositoryDatabases databases;
    private final Backoff backoff;
    private transient MongoRepositories repositories;

    public MongoConnection(RepositoryDatabases databases, Backoff backoff) {
        this.databases = databases;
        this.backoff = backoff;
    }

    /** The pipeline's repositories' databases, retried with the default backoff. */
    public static MongoConnection of(RepositoryServicesOptions pipeline) {
        return new MongoConnection(pipeline.repositoryDatabases(), Backoff.DEFAULT);
    }

    /** @param context the subtask's: what the driver leaves running is stopped when Flink releases the job's classes */
    public MongoDocumentStore open(RuntimeContext context) {
        return new MongoDocumentStore(openRepositories(context), backoff);
    }

    /** The job's database, for what an operator reads or writes besides documents (command records). */
    public MongoDatabase openShared(RuntimeContext context) {
        return openRepositories(context).shared();
    }

    /** The repositories' databases, opened on the first call (one client per deployment for the subtask). */
    public MongoRepositories openRepositories(RuntimeContext context) {
        if (repositories == null) {
            MongoDriverRelease.registerWith(context);
            repositories = new MongoRepositories(databases, MongoClients::create);
        }
        return repositories;
    }

    public void close() {
        if (repositories != null) {
            repositories.close();
        }
    }
}
