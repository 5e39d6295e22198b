package io.volumizer.schemas.codec;

import java.nio.ByteBuffer;

/**
 * The Confluent wire format: magic byte 0, the writer schema's registry id as a 4-byte big-endian int, then the
 * Avro binary encoding. Any Confluent-compatible client reads what this writes.
 */
public final class ConfluentWireFormat {

    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_LENGTH = 5;

    private ConfluentWireFormat() {
    }

    /** The schema id in the header of {@code message}, checking the magic byte and length first. */
    public static int schemaId(byte[] message) {
        if (message == null || message.length < HEADER_LENGTH) {
            throw new WireFormatException(WireFormatException.Kind.TRUNCATED, "expected at least " + HEADER_LENGTH
                    + " header bytes, got " + (message == null ? "null" : message.length));
        }
        if (message[0] != MAGIC_BYTE) {
            throw new WireFormatException(WireFormatException.Kind.WRONG_MAGIC_BYTE,
                    String.format("first byte is 0x%02x, not the magic byte 0x00", message[0]));
        }
        return ByteBuffer.wrap(message, 1, 4).getInt();
    }

    /** Writes the header for {@code schemaId} into the first {@link #HEADER_LENGTH} bytes of {@code target}. */
    public static void writeHeader(int schemaId, byte[] target) {
        target[0] = MAGIC_BYTE;
        target[1] = (byte) (schemaId >>> 24);
        target[2] = (byte) (schemaId >>> 16);
        target[3] = (byte) (schemaId >>> 8);
        target[4] = (byte) schemaId;
    }
}
