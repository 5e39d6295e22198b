package io.volumizer.sinks.blob;

import java.io.Serializable;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.blob.RepositoryBlobStores;

/**
 * Stores generated documents' blobs in their repositories' blob stores (a folder or an S3 bucket), rendered and
 * named by digest, and passes each document on with its blob's digest and length, for MongoDB to record: a document
 * whose repository has no store keeps its blob's key, and the blob is rendered again when it is read.
 */
public final class BlobSink implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RepositoryBlobStores stores;
    private final String stage;

    /**
     * @param stores each repository's blob store, if any
     * @param stage  the pipeline stage the writes are (their metrics' label)
     */
    public BlobSink(RepositoryBlobStores stores, String stage) {
        this.stores = stores;
        this.stage = stage;
    }

    /** Adds the sink's writer after {@code input}, named {@code name}: the documents, with their stored blobs. */
    public SingleOutputStreamOperator<ImportedEvent> writeFrom(DataStream<ImportedEvent> input, String name) {
        return input.map(new StoreBlobs(stores, stage)).name(name);
    }
}
