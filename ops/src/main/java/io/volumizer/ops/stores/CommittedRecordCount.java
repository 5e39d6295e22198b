package io.volumizer.ops.stores;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import io.volumizer.schemas.keys.ProgressMarks;

/**
 * The committed records of a topic but its progress marks, from its start, counted as they come, in all and by a key
 * each record's value gives: each reading reads only what arrived since the one before. Made by
 * {@link Stores#committedRecordCount(String)} and {@link Stores#committedRecordCount(String, Function)}.
 */
public final class CommittedRecordCount implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final Function<byte[], String> key;
    private final Map<String, Long> byKey = new TreeMap<>();

    CommittedRecordCount(KafkaConsumer<byte[], byte[]> consumer, String topic, Function<byte[], String> key) {
        this.consumer = consumer;
        this.topic = topic;
        this.key = key;
    }

    /**
     * The records counted so far, including those already fetched; 0 while the topic does not exist. Does not wait
     * for the broker: a record committed a moment ago may come at the next call.
     */
    public long count() {
        return byKey().values().stream().mapToLong(Long::longValue).sum();
    }

    /** As {@link #count()}, by the key of each record; a key no record has is absent. */
    public Map<String, Long> byKey() {
        readNew();
        return Map.copyOf(byKey);
    }

    private void readNew() {
        if (consumer.assignment().isEmpty()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(partition -> new TopicPartition(topic, partition.partition())).toList();
            if (partitions.isEmpty()) {
                return;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        for (ConsumerRecords<byte[], byte[]> fetched = consumer.poll(Duration.ZERO); !fetched.isEmpty();
                fetched = consumer.poll(Duration.ZERO)) {
            for (var record : fetched) {
                if (!ProgressMarks.isMark(record.headers())) {
                    byKey.merge(key.apply(record.value()), 1L, Long::sum);
                }
            }
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
