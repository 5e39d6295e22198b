package io.volumizer.sinks.bulk;

import java.io.Serializable;
import java.util.List;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.volumizer.stores.BulkResult;

/**
 * Writes batches to a store (MongoDB, Elasticsearch...): the store's half of a {@link BulkSink}, or of an operator
 * that writes batches of its own. Created on the job client, serialized into the cluster, then {@link #open}ed once
 * per subtask.
 */
public interface BulkWriter<T> extends Serializable, AutoCloseable {

    /** @param context the subtask's, to release with the job's classes what the store's client leaves behind */
    void open(RuntimeContext context) throws Exception;

    /**
     * Writes a batch; retries of overload are the writer's, so a thrown exception means the store is unusable, or that
     * a record of the batch could not be written at all (which {@link BulkSinkWriter} finds by halving the batch).
     */
    BulkResult<T> write(List<T> batch);

    /** Bytes that re-create an item that failed, for its dead letter. */
    byte[] payloadOf(T item);

    /** The document id an item is about, for its dead letter. */
    String idOf(T item);

    @Override
    void close() throws Exception;
}
