package io.volumizer.jobs.imports;

import java.io.Serializable;
import java.util.Optional;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.stores.mongodb.Ancestry;

/** Finds a parent that is not in the cache yet: in the repository database, where the import job wrote it. */
public interface ParentLookup extends Serializable, AutoCloseable {

    /** @param context the subtask's, to release with the job's classes what the store's client leaves behind */
    void open(RuntimeContext context) throws Exception;

    Optional<Ancestry> find(String repository, String id);

    @Override
    void close() throws Exception;
}
