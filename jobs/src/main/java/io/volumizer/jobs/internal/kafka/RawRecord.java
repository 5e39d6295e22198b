package io.volumizer.jobs.internal.kafka;

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

    /** Where the record sits in Kafka: unique, so keying by it spreads records at random. */
    public String position() {
        return topic + "/" + partition + "@" + offset;
    }
}
