package io.volumizer.jobs.internal.stores;

import java.io.Serializable;

import org.apache.flink.api.common.functions.RuntimeContext;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;

import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.mongodb.MongoDocumentStore;

/**
 * The repositories' database as an operator reaches it: serialized with the job graph, opened once per subtask
 * with the official driver, closed with the subtask.
 */
public final class MongoConnection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String uri;
    private final String database;
    private final Backoff backoff;
    private transient MongoClient client;

    public MongoConnection(MongoOptions mongodb, Backoff backoff) {
        this.uri = mongodb.uri;
        this.database = mongodb.database;
        this.backoff = backoff;
    }

    /** @param context the subtask's: what the driver leaves running is stopped when Flink releases the job's classes */
    public MongoDocumentStore open(RuntimeContext context) {
        return new MongoDocumentStore(connect(context), database, backoff);
    }

    /** The database itself, for what an operator reads or writes besides documents (command records). */
    public MongoDatabase openDatabase(RuntimeContext context) {
        return connect(context).getDatabase(database);
    }

    private MongoClient connect(RuntimeContext context) {
        MongoDriverRelease.registerWith(context);
        client = MongoClients.create(uri);
        return client;
    }

    public void close() {
        if (client != null) {
            client.close();
        }
    }
}
