package io.volumizer.jobs.imports;

import java.util.List;
import java.util.Optional;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.domain.topology.Topology;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.Ancestry;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.RepositoryDatabases;

/**
 * Looks parents up in MongoDB by id: in the child's repository first, then in the topology's others, since a
 * parent may live in another repository (an archived statement's account lives in a live one).
 */
public final class MongoParentLookup implements ParentLookup {

    private static final long serialVersionUID = 1L;

    private final MongoConnection connection;
    private final List<String> repositories;
    private transient MongoDocumentStore store;

    /** @param repositories all of the topology's, or none where every document's parent is in its own */
    public MongoParentLookup(RepositoryDatabases databases, List<String> repositories) {
        this.connection = new MongoConnection(databases, Backoff.DEFAULT);
        this.repositories = List.copyOf(repositories);
    }

    @Override
    public void open(RuntimeContext context) {
        store = connection.open(context);
    }

    @Override
    public Optional<Ancestry> find(String repository, String id) {
        for (String lookIn : Topology.ownFirst(repository, repositories)) {
            Optional<Ancestry> found = store.ancestry(lookIn, id);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        connection.close();
    }
}
