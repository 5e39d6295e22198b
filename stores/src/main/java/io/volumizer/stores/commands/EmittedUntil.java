package io.volumizer.stores.commands;

import java.time.Duration;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.bson.Document;
import org.bson.conversions.Bson;

import com.mongodb.client.model.Updates;

/**
 * Where a bulk command's changes end in the documents topic: the topic's end offsets, per partition, read once every
 * change was written to it (committed or not yet: a reader passes them only once their transaction is). An import
 * that has read past them in every partition has read every change. Stored in the command's record as
 * {@link CommandStore#EMITTED_UNTIL}.
 */
public record EmittedUntil(String topic, Map<Integer, Long> offsets) {

    /** The longest the end offsets are waited for. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String TOPIC = "topic";
    private static final String OFFSETS = "offsets";

    /** The topic's end offsets now. */
    public static EmittedUntil now(Properties kafka, String topic) throws InterruptedException, ExecutionException,
            TimeoutException {
        try (Admin admin = Admin.create(kafka)) {
            Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().stream().collect(
                            Collectors.toMap(partition -> new TopicPartition(topic, partition.partition()),
                                    partition -> OffsetSpec.latest()));
            Map<Integer, Long> ends = new HashMap<>();
            admin.listOffsets(latest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((partition, end) -> ends.put(partition.partition(), end.offset()));
            return new EmittedUntil(topic, ends);
        }
    }

    /** What a command's record takes once its job has emitted every change: when, and where its changes end. */
    public Bson recorded() {
        return Updates.combine(Updates.set(CommandStore.EMITTED, new Date()), Updates.set(CommandStore.EMITTED_UNTIL,
                toDocument()));
    }

    public Document toDocument() {
        Document byPartition = new Document();
        offsets.forEach((partition, offset) -> byPartition.append(Integer.toString(partition), offset));
        return new Document(TOPIC, topic).append(OFFSETS, byPartition);
    }

    /** As stored in a command's record. */
    public static EmittedUntil of(Document stored) {
        Map<Integer, Long> offsets = new HashMap<>();
        stored.get(OFFSETS, Document.class).forEach((partition, offset) ->
                offsets.put(Integer.valueOf(partition), ((Number) offset).longValue()));
        return new EmittedUntil(stored.getString(TOPIC), offsets);
    }
}
