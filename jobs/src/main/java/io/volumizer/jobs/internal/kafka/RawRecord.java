package io.volumizer.jobs.internal.kafka;

import java.nio.ByteBuffer;

import io.volumizer.schemas.event.DeadLetter;

/**
 * A Kafka record as received, before decoding: decoding happens in an operator of its own, so that bytes that
 * cannot be decoded become dead letters with their topic, partition and offset instead of failing the source.
 * A Flink POJO (public fields, no-argument constructor).
 */
public class RawRecord {

    public byte[] key;
    public byte[] value;
    public String topic;
    public int partition;
    public long offset;
    public long timestamp;
    /** A {@link io.volumizer.schemas.keys.ProgressMarks progress mark}, not a document: dropped once it has moved event time. */
    public boolean progressMark;

    public RawRecord() {
    }

    public RawRecord(byte[] key, byte[] value, String topic, int partition, long offset, long timestamp) {
        this.key = key;
        this.value = value;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
    }

    /** The record key as text; a record without one is keyed by its position, which spreads such records. */
    public String keyText() {
        return key != null ? new String(key, java.nio.charset.StandardCharsets.UTF_8) : position();
    }

    /** The record as a dead letter: {@code letter} (its stage and reason) with the bytes and where Kafka held them. */
    public DeadLetter deadLetter(DeadLetter.Builder letter) {
        return letter.setPayload(ByteBuffer.wrap(value == null ? new byte[0] : value))
                .setKey(key == null ? null : ByteBuffer.wrap(key)).setTopic(topic).setPartition(partition)
                .setOffset(offset).build();
    }

    /** Where the record sits in Kafka: unique, so keying by it spreads records at random. */
    public String position() {
        return topic + "/" + partition + "@" + offset;
    }

    /**
     * The record as one byte array, for state that is snapshotted often (parked records): Flink's POJO serializer
     * writes the topic name character by character, which made snapshots of many small records costly.
     */
    public byte[] toBytes() {
        try {
            var bytes = new java.io.ByteArrayOutputStream(32 + (value == null ? 0 : value.length) + (key == null ? 0 : key.length));
            var out = new java.io.DataOutputStream(bytes);
            writeArray(out, key);
            writeArray(out, value);
            writeArray(out, topic.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.writeInt(partition);
            out.writeLong(offset);
            out.writeLong(timestamp);
            return bytes.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The inverse of {@link #toBytes()}. */
    public static RawRecord fromBytes(byte[] bytes) {
        try {
            var in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes));
            byte[] key = readArray(in);
            byte[] value = readArray(in);
            String topic = new String(readArray(in), java.nio.charset.StandardCharsets.UTF_8);
            return new RawRecord(key, value, topic, in.readInt(), in.readLong(), in.readLong());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void writeArray(java.io.DataOutputStream out, byte[] array) throws java.io.IOException {
        out.writeInt(array == null ? -1 : array.length);
        if (array != null) {
            out.write(array);
        }
    }

    private static byte[] readArray(java.io.DataInputStream in) throws java.io.IOException {
        int length = in.readInt();
        return length < 0 ? null : in.readNBytes(length);
    }
}
