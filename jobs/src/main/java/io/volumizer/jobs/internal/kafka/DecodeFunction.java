package io.volumizer.jobs.internal.kafka;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.options.conventions.MetricNames;

/** Decodes records in an operator of their own; what cannot be decoded becomes a dead letter naming the reason. */
public final class DecodeFunction<T> extends ProcessFunction<RawRecord, T> implements ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final String stage;
    private final RecordDecoder<T> decoder;
    private final Class<T> type;
    private transient Counter decoded;
    private transient DeadLetters deadLetters;

    public DecodeFunction(String stage, RecordDecoder.Codec<T> codec, Class<T> type) {
        this.stage = stage;
        this.decoder = new RecordDecoder<>(codec);
        this.type = type;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return TypeInformation.of(type);
    }

    @Override
    public void open(OpenContext openContext) {
        decoded = StageMetrics.of(getRuntimeContext().getMetricGroup(), stage).counter(MetricNames.DECODED);
        deadLetters = new DeadLetters(getRuntimeContext().getMetricGroup(), stage);
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<T> out) {
        T value = decoder.decode(record,
                (reasonClass, reason) -> context.output(DeadLetters.TAG, record.deadLetter(deadLetters.letter(reasonClass, reason))));
        if (value != null) {
            decoded.inc();
            out.collect(value);
        }
    }
}
