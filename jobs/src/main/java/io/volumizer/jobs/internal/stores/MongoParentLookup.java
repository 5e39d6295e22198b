package io.volumizer.jobs.internal.stores;

import java.util.Optional;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.sinks.Backoff;
import io.volumizer.sinks.mongodb.Ancestry;
import io.volumizer.sinks.mongodb.MongoDocumentStore;

/** Looks parents up in MongoDB by id. */
public final class MongoParentLookup implements ParentLookup {

    private static final long serialVersionUID = 1L;

    private final MongoConnection connection;
    private transient MongoDocumentStore store;

    public MongoParentLookup(MongoOptions mongodb) {
        this.connection = new MongoConnection(mongodb, Backoff.DEFAULT);
    }

    @Override
    public void open(RuntimeContext context) {
        store = connection.open(context);
    }

    @Override
    public Optional<Ancestry> find(String repository, String id) {
        return store.ancestry(repository, id);
    }

    @Override
    public void close() {
        connection.close();
    }
}
