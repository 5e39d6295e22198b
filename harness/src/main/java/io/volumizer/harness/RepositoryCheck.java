package io.volumizer.harness;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.DELETED;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.api.documents.Documents;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * What "nothing lost" is checked on, before and after the hostile users: the repository's documents in MongoDB (all,
 * and live), the live descendants of the folders they tried to delete, and the documents topic, where any write the
 * API accepted would be appended (MongoDB shows it only once an import job applies it): the document events
 * appended between the two moments, by their origin (an import job's progress marks, which carry no event, aside).
 */
public final class RepositoryCheck {

    /** The figures at one moment; the topic's end offset by partition. */
    public record Snapshot(long documents, long live, Map<String, Long> liveDescendants, Map<String, Boolean> folderLive,
            Map<Integer, Long> topicEnds) {

        public long topicEndOffsets() {
            return topicEnds.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final Documents documents;
    private final String repository;
    private final Admin kafka;
    private final Properties consumerConfig;
    private final String registryUrl;
    private final String topic;

    public RepositoryCheck(Documents documents, String repository, Admin kafka, Properties kafkaClient, String registryUrl,
            String topic) {
        this.documents = documents;
        this.repository = repository;
        this.kafka = kafka;
        this.consumerConfig = new Properties();
        this.consumerConfig.putAll(kafkaClient);
        this.consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.registryUrl = registryUrl;
        this.topic = topic;
    }

    public Snapshot take(List<String> folders) throws ExecutionException, InterruptedException {
        MongoCollection<org.bson.Document> collection = documents.collection(repository);
        Map<String, Long> descendants = new LinkedHashMap<>();
        Map<String, Boolean> live = new LinkedHashMap<>();
        for (String folder : folders) {
            descendants.put(folder, liveDescendants(folder));
            live.put(folder, documents.find(repository, folder).isPresent());
        }
        return new Snapshot(collection.countDocuments(), collection.countDocuments(Filters.ne(DELETED, true)),
                descendants, live, topicEnds());
    }

    public long liveDescendants(String folder) {
        return documents.collection(repository).countDocuments(Filters.and(Filters.eq(ANCESTOR_IDS, folder),
                Filters.ne(DELETED, true)));
    }

    /**
     * The document events appended to the topic from {@code before}'s end offsets to {@code after}'s, counted by
     * operation and origin ({@code CREATE api}); progress marks are not events and are left out.
     */
    public Map<String, Long> eventsBetween(Snapshot before, Snapshot after) {
        Map<String, Long> events = new TreeMap<>();
        Map<TopicPartition, Long> remaining = new LinkedHashMap<>();
        try (KafkaConsumer<String, DocumentEvent> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                KafkaAvroSerde.deserializer(registryUrl, DocumentEvent.class))) {
            after.topicEnds().forEach((partition, end) -> {
                long start = before.topicEnds().getOrDefault(partition, 0L);
                if (end > start) {
                    remaining.put(new TopicPartition(topic, partition), end);
                }
            });
            consumer.assign(remaining.keySet());
            remaining.keySet().forEach(partition -> consumer.seek(partition,
                    before.topicEnds().getOrDefault(partition.partition(), 0L)));
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!remaining.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, DocumentEvent> record : consumer.poll(Duration.ofSeconds(1))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    Long end = remaining.get(partition);
                    if (end == null || record.offset() >= end) {
                        continue;
                    }
                    DocumentEvent event = record.value();
                    if (event != null) {
                        events.merge(event.getOperation() + " " + (event.getOrigin() == null ? "no origin"
                                : event.getOrigin().getSource()), 1L, Long::sum);
                    }
                }
                // By position, not by the last record's offset: a transaction's markers take offsets too.
                remaining.entrySet().removeIf(partition -> consumer.position(partition.getKey()) >= partition.getValue());
            }
        }
        if (!remaining.isEmpty()) {
            events.put("not read within " + READ_TIMEOUT.toSeconds() + " s (partitions " + remaining.keySet() + ")", -1L);
        }
        return events;
    }

    private Map<Integer, Long> topicEnds() throws ExecutionException, InterruptedException {
        List<TopicPartition> partitions = kafka.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                .partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        Map<Integer, Long> ends = new TreeMap<>();
        kafka.listOffsets(partitions.stream().collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())))
                .all().get().forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
        return ends;
    }
}
