package io.volumizer.schemas.codec;

import java.util.Map;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.avro.specific.SpecificRecord;

import io.volumizer.schemas.registry.SchemaRegistryClient;

/**
 * Kafka serializer and deserializer of one generated Avro class in the Confluent wire format, for plain Kafka
 * clients (the API, CLI tools). Subjects follow the TopicNameStrategy: {@code <topic>-value}.
 */
public final class KafkaAvroSerde {

    private KafkaAvroSerde() {
    }

    public static <T extends SpecificRecord> Serializer<T> serializer(String registryUrl, Class<T> type) {
        SchemaRegistryClient registry = new SchemaRegistryClient(registryUrl);
        Map<String, AvroCodec<T>> codecs = new java.util.concurrent.ConcurrentHashMap<>();
        return new Serializer<>() {
            @Override
            public byte[] serialize(String topic, T data) {
                if (data == null) {
                    return null;
                }
                try {
                    return codecs.computeIfAbsent(topic,
                            t -> AvroCodec.forSpecific(registry, AvroCodec.valueSubject(t), type)).encode(data);
                } catch (RuntimeException e) {
                    throw new SerializationException("cannot serialize " + type.getSimpleName() + " for " + topic
                            + ": " + e.getMessage(), e);
                }
            }
        };
    }

    /** Throws {@link SerializationException} whose cause is the {@link WireFormatException} naming the reason. */
    public static <T extends SpecificRecord> Deserializer<T> deserializer(String registryUrl, Class<T> type) {
        AvroCodec<T> codec = AvroCodec.forSpecific(new SchemaRegistryClient(registryUrl), "", type);
        return new Deserializer<>() {
            @Override
            public T deserialize(String topic, byte[] data) {
                if (data == null) {
                    return null;
                }
                try {
                    return codec.decode(data);
                } catch (WireFormatException e) {
                    throw new SerializationException("cannot read a " + type.getSimpleName() + " from " + topic + ": "
                            + e.getMessage(), e);
                }
            }
        };
    }
}
