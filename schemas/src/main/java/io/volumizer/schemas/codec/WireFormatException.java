package io.volumizer.schemas.codec;

/** Bytes that cannot be decoded, with the reason as a {@link Kind} a pipeline can dead-letter by. */
public class WireFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why bytes could not be read. */
    public enum Kind {
        /** The first byte is not the Confluent magic byte 0: not Confluent-framed Avro at all. */
        WRONG_MAGIC_BYTE,
        /** Fewer than the 5 header bytes, or Avro data that ends early. */
        TRUNCATED,
        /** The registry has no schema with the id in the header. */
        UNKNOWN_SCHEMA_ID,
        /** The Avro body does not match its writer schema, or cannot be resolved to the reader schema. */
        MALFORMED_AVRO,
        /** The registry's schema under the id in the header is not Avro (JSON, Protobuf) or does not parse. */
        NOT_AVRO,
        /** The registry could not be asked (down, or answered an error other than 404). */
        REGISTRY_UNAVAILABLE
    }

    private final Kind kind;

    public WireFormatException(Kind kind, String message) {
        super(kind + ": " + message);
        this.kind = kind;
    }

    public WireFormatException(Kind kind, String message, Throwable cause) {
        super(kind + ": " + message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
