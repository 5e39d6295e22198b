package io.volumizer.ops.stores;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import com.mongodb.client.MongoClients;

import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.keys.ProgressMarks;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchException;

/**
 * What the pipeline's views hold, read from the stores themselves (not from job metrics), and the reset of a
 * step: its topics, collection and index emptied, so a replay starts from nothing.
 */
public final class Stores implements AutoCloseable {

    /** Where dead letters are counted whose payload is not a readable document (bad bytes, an unknown schema). */
    public static final String UNATTRIBUTED = "(not a document)";

    private final PipelineOptions options;
    private final MongoRepositories mongo;
    private final SearchEngine search;
    private final Admin kafka;

    public Stores(PipelineOptions options) {
        this.options = options;
        this.mongo = new MongoRepositories(options.repositoryDatabases(), MongoClients::create);
        this.search = SearchEngines.open(options.search);
        this.kafka = Admin.create(options.kafka.clientProperties());
    }

    /** The search engine these counts read, for others to read it too; closed with these. */
    public SearchEngine search() {
        return search;
    }

    /** The repository's documents in MongoDB, counted one by one: for reconciliation, not for polling. */
    public long mongoCount(String repository) {
        return mongo.collection(repository).countDocuments();
    }

    /**
     * The repository's files' texts stored in MongoDB (of a live repository), counted one by one: every one stored,
     * those of versions since changed or deleted too.
     */
    public long storedFileTexts(String repository) {
        return mongo.fileTexts(repository).countDocuments();
    }

    /**
     * The repository's documents in MongoDB from the collection's metadata, without reading them: for progress,
     * polled often. {@link #mongoCount} reads every document (an aggregation), which at a billion documents takes
     * minutes, and on the local stand-in, polled every second, took most of its CPU from the import it watched.
     */
    public long mongoEstimatedCount(String repository) {
        return mongo.collection(repository).estimatedDocumentCount();
    }

    /** Every document indexed so far: the index is refreshed first. */
    public long elasticsearchCount(String repository) throws IOException {
        return elasticsearchCount(options.indices(), repository, true, null);
    }

    /**
     * The documents a search sees now, without forcing a refresh: polled often, forced refreshes would make
     * the engine cut a tiny segment each time, and merge them, while it indexes. None while the index is being
     * created (its shard not started yet).
     */
    public long searchableCount(IndexNames indices, String repository) throws IOException {
        return searchableCount(indices, repository, null);
    }

    /**
     * The documents of a live repository whose file's text a search sees now ({@link DocumentFields#FILE_TEXT_INDEXED}),
     * without forcing a refresh, as {@link #searchableCount(IndexNames, String)}.
     */
    public long searchableFileTexts(IndexNames indices, String repository) throws IOException {
        ObjectNode withText = JsonNodeFactory.instance.objectNode();
        withText.putObject("term").put(DocumentFields.FILE_TEXT_INDEXED, true);
        return searchableCount(indices, repository, withText);
    }

    private long searchableCount(IndexNames indices, String repository, ObjectNode query) throws IOException {
        try {
            return elasticsearchCount(indices, repository, false, query);
        } catch (SearchException e) {
            if (e.kind() == SearchException.Kind.UNAVAILABLE) {
                return 0;
            }
            throw e;
        }
    }

    private long elasticsearchCount(IndexNames indices, String repository, boolean refresh, ObjectNode query)
            throws IOException {
        String alias = indices.of(repository);
        try {
            if (refresh) {
                search.indices(indices).refresh(alias);
            }
            return search.reader().count(List.of(alias), query);
        } catch (SearchException e) {
            if (e.kind() == SearchException.Kind.NOT_FOUND) {
                return 0;
            }
            throw e;
        }
    }

    /** Records of committed transactions in a topic (what a read_committed consumer sees). */
    public long committedRecords(String topic) {
        long[] count = {0};
        readCommitted(topic, value -> count[0]++);
        return count[0];
    }

    /**
     * The bytes a topic's partitions take in the brokers' logs (one copy each: the leaders' and followers' are counted
     * once per partition), as the brokers report them.
     */
    public long topicBytes(String topic) throws IOException {
        try {
            List<Integer> brokers = kafka.describeCluster().nodes().get().stream().map(node -> node.id()).toList();
            Map<TopicPartition, Long> largest = new HashMap<>();
            kafka.describeLogDirs(brokers).allDescriptions().get().values().forEach(dirs -> dirs.values()
                    .forEach(dir -> dir.replicaInfos().forEach((partition, replica) -> {
                        if (partition.topic().equals(topic)) {
                            largest.merge(partition, replica.size(), Math::max);
                        }
                    })));
            return largest.values().stream().mapToLong(Long::longValue).sum();
        } catch (ExecutionException e) {
            throw new IOException("cannot read the log size of topic " + topic + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the log size of topic " + topic, e);
        }
    }

    /** Every committed record of a topic but its progress marks, from its start to its end as it is now, in each partition's order. */
    public void readCommitted(String topic, Consumer<byte[]> each) {
        try (var consumer = committedReader()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (!ProgressMarks.isMark(record.headers())) {
                        each.accept(record.value());
                    }
                });
            }
        }
    }

    /**
     * A count of a topic's committed records that follows the topic as it grows, for a caller that polls it while a
     * job writes (reading the topic again at every poll would cost more the longer the job runs).
     */
    public CommittedRecordCount committedRecordCount(String topic) {
        return committedRecordCount(topic, value -> "");
    }

    /** As {@link #committedRecordCount(String)}, counted by the key {@code key} gives each record's value too. */
    public CommittedRecordCount committedRecordCount(String topic, Function<byte[], String> key) {
        return new CommittedRecordCount(committedReader(), topic, key);
    }

    /** A consumer that sees what a read_committed consumer sees, assigned by its caller, in no group's offsets. */
    private KafkaConsumer<byte[], byte[]> committedReader() {
        Properties config = options.kafka.clientProperties();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, ConsumerGroups.ephemeral("count"));
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // Asking for a topic's partitions must not create it (the local broker creates topics on first use).
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * The committed records of a documents topic, counted by the repository each document names, or under
     * {@link #UNATTRIBUTED} where its bytes are not a document.
     */
    public Map<String, Long> documentsByRepository(String topic) {
        var documents = KafkaAvroSerde.deserializer(options.registry.url, DocumentEvent.class);
        Map<String, Long> counts = new TreeMap<>();
        readCommitted(topic, value -> counts.merge(repositoryOf(documents, topic, value), 1L, Long::sum));
        return counts;
    }

    /**
     * The dead letters of the documents topic, by the repository of the document each carries. A file's text the
     * engine refused (stage {@value MetricNames#FILE_TEXT}) is not among them: its document is indexed, without it.
     */
    public Map<String, Long> deadLettersByRepository() {
        var deadLetters = KafkaAvroSerde.deserializer(options.registry.url, DeadLetter.class);
        var documents = KafkaAvroSerde.deserializer(options.registry.url, DocumentEvent.class);
        Map<String, Long> counts = new TreeMap<>();
        readCommitted(options.deadletterTopic(), value -> {
            DeadLetter deadLetter = deadLetters.deserialize(options.deadletterTopic(), value);
            if (deadLetter.getStage().equals(MetricNames.FILE_TEXT)) {
                return;
            }
            ByteBuffer payload = deadLetter.getPayload().duplicate();
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            counts.merge(repositoryOf(documents, deadLetter.getTopic(), bytes), 1L, Long::sum);
        });
        return counts;
    }

    private static String repositoryOf(Deserializer<DocumentEvent> documents, String topic, byte[] value) {
        try {
            return documents.deserialize(topic, value).getRepository();
        } catch (SerializationException e) {
            return UNATTRIBUTED;
        }
    }

    /**
     * Deletes the pipeline's topics (its throttles' too), the repository's collections and its index: the next run
     * starts from nothing.
     */
    public void reset(String repository) throws IOException {
        reset(repository, options.documentsTopic(), options.importedTopic(), options.deadletterTopic(),
                options.controlTopic());
    }

    /** Deletes the topics, the repository's collections (its documents, its files' texts) and its index. */
    public void reset(String repository, String... topics) throws IOException {
        deleteTopics(topics);
        mongo.collection(repository).drop();
        mongo.fileTexts(repository).drop();
        search.indices(options.indices()).delete(repository);
    }

    /** Deletes those of the topics that exist, and waits until the broker no longer lists them. */
    public void deleteTopics(String... topics) throws IOException {
        try {
            Set<String> existing = kafka.listTopics().names().get();
            List<String> toDelete = new ArrayList<>();
            for (String topic : topics) {
                if (existing.contains(topic)) {
                    toDelete.add(topic);
                }
            }
            kafka.deleteTopics(toDelete).all().get();
            // Deletion is asynchronous: wait until the broker no longer lists them.
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (kafka.listTopics().names().get().stream().anyMatch(toDelete::contains) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        } catch (ExecutionException e) {
            throw new IOException("cannot delete topics: " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while deleting topics", e);
        }
    }

    @Override
    public void close() throws IOException {
        mongo.close();
        search.close();
        kafka.close();
    }
}
