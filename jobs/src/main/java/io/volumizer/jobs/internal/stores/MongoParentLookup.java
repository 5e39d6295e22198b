package io.volumizer.jobs.internal.stores;

import java.util.Optional;

import org.apache.flink.api.common.functions.RuntimeContext;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.volumizer.jobs.imports.ParentLookup;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.mongodb.Ancestry;
import io.volumizer.sinks.mongodb.MongoDocumentStore;

/** Looks parents up in MongoDB by id. */
public final class MongoParentLookup implements ParentLookup {

    private static final long serialVersionUID = 1L;

    private final String uri;
    private final String database;
    private transient MongoClient client;
    private transient MongoDocumentStore store;

    public MongoParentLookup(String uri, String database) {
        this.uri = uri;
        this.database = database;
    }

    @Override
    public void open(RuntimeContext context) {
        MongoDriverRelease.registerWith(context);
        client = MongoClients.create(uri);
        store = new MongoDocumentStore(client, database, Backoff.DEFAULT);
    }

    @Override
    public Optional<Ancestry> find(String repository, String id) {
        return store.ancestry(repository, id);
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }
}
