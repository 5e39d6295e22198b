package io.volumizer.jobs.internal.kafka;

import java.io.Serializable;
import java.util.function.BiConsumer;

import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.event.ReasonClass;

/**
 * Decodes a Kafka record's value, or says why it cannot: garbage, a wrong magic byte, an unknown schema id, a
 * schema id whose schema is not Avro, a truncated record or a tombstone is the record's fault and gets a reason to dead-letter it by. An unreachable
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

    /** The decoded value, or {@code null} after telling {@code reject} why there is none (its class and particulars). */
    public T decode(RawRecord record, BiConsumer<ReasonClass, String> reject) {
        if (record.value == null) {
            reject.accept(ReasonClass.EMPTY_VALUE, "empty record value (tombstone)");
            return null;
        }
        try {
            return codec.decode(record.value);
        } catch (WireFormatException e) {
            reject.accept(reasonClass(e), e.getMessage());
            return null;
        }
    }

    private static ReasonClass reasonClass(WireFormatException e) {
        return switch (e.kind()) {
            case WRONG_MAGIC_BYTE -> ReasonClass.WRONG_MAGIC_BYTE;
            case TRUNCATED -> ReasonClass.TRUNCATED;
            case UNKNOWN_SCHEMA_ID -> ReasonClass.UNKNOWN_SCHEMA_ID;
            case MALFORMED_AVRO -> ReasonClass.MALFORMED_AVRO;
            case NOT_AVRO -> ReasonClass.NOT_AVRO;
            case REGISTRY_UNAVAILABLE -> throw e;
        };
    }
}
