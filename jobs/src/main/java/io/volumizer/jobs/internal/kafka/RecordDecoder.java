package io.volumizer.jobs.internal.kafka;

import java.io.Serializable;
import java.util.function.Consumer;

import io.volumizer.schemas.codec.WireFormatException;

/**
 * Decodes a Kafka record's value, or says why it cannot: garbage, a wrong magic byte, an unknown schema id, a
 * truncated record or a tombstone is the record's fault and gets a reason to dead-letter it by. An unreachable
 * registry is not: it is thrown, so the task fails and restarts from its checkpoint instead of dead-lettering good
 * records.
 */
public final class RecordDecoder<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Bytes to a value; {@link WireFormatException} for bytes that are not one (e.g. {@code AvroCodec::decode}). */
    public interface Codec<T> extends Serializable {
        T decode(byte[] bytes);
    }

    private final Codec<T> codec;

    public RecordDecoder(Codec<T> codec) {
        this.codec = codec;
    }

    /** The decoded value, or {@code null} after telling {@code reject} why there is none. */
    public T decode(RawRecord record, Consumer<String> reject) {
        if (record.value == null) {
            reject.accept("empty record value (tombstone)");
            return null;
        }
        try {
            return codec.decode(record.value);
        } catch (WireFormatException e) {
            if (e.kind() == WireFormatException.Kind.REGISTRY_UNAVAILABLE) {
                throw e;
            }
            reject.accept(e.getMessage());
            return null;
        }
    }
}
