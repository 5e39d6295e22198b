package io.volumizer.sinks.bulk;

import java.io.Serializable;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import io.volumizer.sinks.deadletter.DeadLetters;

/**
 * Writes a stream into a store in bulk: a {@link BulkWriter} (the store's half), when to flush, and the stage whose
 * metrics and dead letters the writes are. Built by a store's builder ({@code MongoSinkBuilder},
 * {@code SearchSinkBuilder}). Unlike a Flink {@code Sink}, it has an output: the records written, as they are
 * written, for the next stage (the imported topic, the index); the stale ones (the store holds a newer version) are
 * counted and dropped, the failed ones are dead letters ({@link DeadLetters#TAG}).
 */
public final class BulkSink<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** An estimate of a record's size in a bulk request. */
    public interface SizeOf<T> extends Serializable {
        long bytes(T record);
    }

    private final String stage;
    private final BulkWriter<T> writer;
    private final BulkFlushOptions flush;
    private final SizeOf<T> sizeOf;
    private final TypeInformation<T> type;

    /**
     * @param stage  the pipeline stage the writes are (its metrics' and dead letters' label)
     * @param type   the written records' type, downstream
     */
    public BulkSink(String stage, BulkWriter<T> writer, BulkFlushOptions flush, SizeOf<T> sizeOf,
            TypeInformation<T> type) {
        this.stage = stage;
        this.writer = writer;
        this.flush = flush;
        this.sizeOf = sizeOf;
        this.type = type;
    }

    /** Adds the sink's writer after {@code input}, named {@code name}: the records written, dead letters aside. */
    public SingleOutputStreamOperator<T> writeFrom(DataStream<T> input, String name) {
        return input.transform(name, type, new BulkSinkWriter<>(stage, writer, flush, sizeOf));
    }
}
