package io.volumizer.jobs.internal.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.codec.WireFormatException;

/**
 * Decodes Confluent-framed Avro. Garbage, wrong magic bytes, unknown schema ids and truncated records become dead
 * letters naming the reason; the stream goes on. An unreachable registry is not the record's fault: it fails the
 * task, which restarts from its checkpoint instead of dead-lettering good records.
 */
public final class DecodeFunction<T> extends ProcessFunction<RawRecord, T> implements ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final String stage;
    private final AvroCodec<T> codec;
    private final Class<T> type;
    private transient Counter decoded;
    private transient Counter deadLettered;

    public DecodeFunction(String stage, AvroCodec<T> codec, Class<T> type) {
        this.stage = stage;
        this.codec = codec;
        this.type = type;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return TypeInformation.of(type);
    }

    @Override
    public void open(Configuration parameters) {
        decoded = getRuntimeContext().getMetricGroup().counter("decoded");
        deadLettered = getRuntimeContext().getMetricGroup().counter("deadLettered");
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<T> out) {
        if (record.value == null) {
            reject(record, "empty record value (tombstone)", context);
            return;
        }
        T value;
        try {
            value = codec.decode(record.value);
        } catch (WireFormatException e) {
            if (e.kind() == WireFormatException.Kind.REGISTRY_UNAVAILABLE) {
                throw e;
            }
            reject(record, e.getMessage(), context);
            return;
        }
        decoded.inc();
        out.collect(value);
    }

    private void reject(RawRecord record, String reason, Context context) {
        deadLettered.inc();
        context.output(DeadLetters.TAG, DeadLetters.of(stage, reason, record));
    }
}
