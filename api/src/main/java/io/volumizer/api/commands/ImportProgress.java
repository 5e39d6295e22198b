package io.volumizer.api.commands;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import io.volumizer.stores.commands.EmittedUntil;

/**
 * How far the imports have read the documents topic: the offsets each consumer group has committed on it. An import
 * (of whatever group: the convention's, or one its options name) commits them as its checkpoints complete, after
 * the documents read up to them are in the stores; while it runs they move at every checkpoint, as its progress
 * marks keep coming even where no document does.
 */
final class ImportProgress {

    /**
     * How long the imports' committed offsets on the documents topic may stand still before a bulk command's changes
     * are said to wait for an import: six checkpoints at the default interval, each of which moves them.
     */
    static final Duration IDLE = Duration.ofSeconds(30);
    /** The longest a reconciliation waits for Kafka: past it, the record stands as stored. */
    static final Duration TIMEOUT = EmittedUntil.TIMEOUT;

    /** Per group that has read the topic, per partition, the offset it has committed. */
    private final Map<String, Map<Integer, Long>> committed;

    private ImportProgress(Map<String, Map<Integer, Long>> committed) {
        this.committed = committed;
    }

    /** Reads every consumer group's committed offsets on {@code topic}, within {@link #TIMEOUT}. */
    static ImportProgress of(Properties kafka, String topic) throws InterruptedException, ExecutionException,
            TimeoutException {
        try (Admin admin = Admin.create(kafka)) {
            Map<String, ListConsumerGroupOffsetsSpec> groups = admin.listConsumerGroups().all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).stream().map(ConsumerGroupListing::groupId)
                    .collect(Collectors.toMap(Function.identity(), group -> new ListConsumerGroupOffsetsSpec()));
            Map<String, Map<Integer, Long>> committed = new HashMap<>();
            if (!groups.isEmpty()) {
                admin.listConsumerGroupOffsets(groups).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .forEach((group, offsets) -> offsets.forEach((partition, offset) ->
                                onTopic(topic, committed, group, partition, offset)));
            }
            return new ImportProgress(committed);
        }
    }

    private static void onTopic(String topic, Map<String, Map<Integer, Long>> committed, String group,
            TopicPartition partition, OffsetAndMetadata offset) {
        if (offset != null && partition.topic().equals(topic)) {
            committed.computeIfAbsent(group, name -> new HashMap<>()).put(partition.partition(), offset.offset());
        }
    }

    /** Whether one group has read past {@code ends} (partition to offset) in every partition. */
    boolean passed(Map<Integer, Long> ends) {
        return committed.values().stream().anyMatch(group -> ends.entrySet().stream()
                .allMatch(end -> group.getOrDefault(end.getKey(), -1L) >= end.getValue()));
    }

    /** The sum of every group's committed offsets: it moves while an import runs. */
    long total() {
        return committed.values().stream().flatMap(group -> group.values().stream()).mapToLong(Long::longValue).sum();
    }
}
