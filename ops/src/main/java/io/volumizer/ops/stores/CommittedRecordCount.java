package io.volumizer.ops.stores;

import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import io.volumizer.schemas.keys.ProgressMarks;

/**
 * The committed records of a topic but its progress marks, from its start, counted as they come: each {@link #count()} reads only what
 * arrived since the one before. Made by {@link Stores#committedRecordCount(String)}.
 */
public final class CommittedRecordCount implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private long count;

    CommittedRecordCount(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        this.consumer = consumer;
        this.topic = topic;
    }

    /**
     * The records counted so far, including those already fetched; 0 while the topic does not exist. Does not wait
     * for the broker: a record committed a moment ago may come at the next call.
     */
    public long count() {
        if (consumer.assignment().isEmpty()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(partition -> new TopicPartition(topic, partition.partition())).toList();
            if (partitions.isEmpty()) {
                return 0;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        for (ConsumerRecords<byte[], byte[]> fetched = consumer.poll(Duration.ZERO); !fetched.isEmpty();
                fetched = consumer.poll(Duration.ZERO)) {
            for (var record : fetched) {
                count += ProgressMarks.isMark(record.headers()) ? 0 : 1;
            }
        }
        return count;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
