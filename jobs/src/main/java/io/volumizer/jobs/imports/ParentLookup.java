package io.volumizer.jobs.imports;

import java.io.Serializable;
import java.util.Optional;

import io.volumizer.sinks.mongodb.Ancestry;

/** Finds a parent that is not in the cache yet: in the repository database, where the import job wrote it. */
public interface ParentLookup extends Serializable, AutoCloseable {

    void open() throws Exception;

    Optional<Ancestry> find(String repository, String id);

    @Override
    void close() throws Exception;
}
