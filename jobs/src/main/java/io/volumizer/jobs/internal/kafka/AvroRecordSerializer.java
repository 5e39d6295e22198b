package io.volumizer.jobs.internal.kafka;

import java.nio.charset.StandardCharsets;

import org.apache.flink.api.common.functions.Function;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

import io.volumizer.schemas.codec.AvroCodec;

/** Writes records in the Confluent wire format under {@code <topic>-value}, keyed by a string of the record. */
public final class AvroRecordSerializer<T> implements KafkaRecordSerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    /** The Kafka key of a record, e.g. its parent id. */
    public interface KeyOf<T> extends Function {
        String key(T record);
    }

    private final String topic;
    private final AvroCodec<T> codec;
    private final KeyOf<T> keyOf;

    public AvroRecordSerializer(String topic, AvroCodec<T> codec, KeyOf<T> keyOf) {
        this.topic = topic;
        this.codec = codec;
        this.keyOf = keyOf;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T record, KafkaSinkContext context, Long timestamp) {
        String key = keyOf.key(record);
        return new ProducerRecord<>(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                codec.encode(record));
    }
}
