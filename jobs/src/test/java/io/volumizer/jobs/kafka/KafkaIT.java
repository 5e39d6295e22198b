package io.volumizer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Against the local Kafka broker (KRaft) started by {@code bin/volumizer up}. */
class KafkaIT {

    private static final String BOOTSTRAP = System.getProperty("volumizer.kafka.bootstrap");

    @Test
    void producesAndConsumesKeyedRecordsWithOnePartitionPerKey() throws Exception {
        String topic = "it-kafka-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP))) {
            admin.createTopics(Set.of(new NewTopic(topic, 3, (short) 1))).all().get();
        }
        Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP);
        // What is tested is where keys land, not idempotence: on a busy 2-core machine a retried batch made the
        // idempotent producer reset its sequence numbers, which the broker kept rejecting until the sends expired.
        // One request in flight keeps each partition's order without them.
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        producerConfig.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000);
        producerConfig.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 180_000);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (var producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 1000; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, "parent-" + i % 10, "child-" + i)));
            }
            producer.flush();
        }
        for (Future<RecordMetadata> acknowledged : sent) {
            acknowledged.get(); // a failed send fails here, with the broker's reason
        }

        List<ConsumerRecord<String, String>> consumed = consumeAll(topic, 1000);

        assertThat(consumed).hasSize(1000);
        Map<String, Integer> partitionOfKey = new HashMap<>();
        for (ConsumerRecord<String, String> record : consumed) {
            Integer earlier = partitionOfKey.putIfAbsent(record.key(), record.partition());
            assertThat(earlier == null || earlier == record.partition()).as("key %s on one partition", record.key()).isTrue();
        }
        assertThat(partitionOfKey).hasSize(10);
    }

    private static List<ConsumerRecord<String, String>> consumeAll(String topic, int expected) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            // Assigned, not subscribed: no consumer-group coordination to wait for.
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        return records;
    }

    @Test
    void theTopicsAJobCreatesAreReplicatedAndKeptAsItsOptionsSay() throws Exception {
        String repository = "it-topics-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        io.volumizer.options.pipeline.PipelineOptions options = io.volumizer.options.Options.parse(
                new io.volumizer.options.pipeline.PipelineOptions(), "--bootstrap-servers", BOOTSTRAP, "--topics-of",
                repository, "--partitions", "3", "--topic-min-insync-replicas", "1", "--topic-retention", "P2D");

        io.volumizer.jobs.internal.Connectors.ensureTopics(options, options.documentsTopic());

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP))) {
            var resource = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, options.documentsTopic());
            var config = admin.describeConfigs(java.util.List.of(resource)).all().get().get(resource);
            var description = admin.describeTopics(java.util.List.of(options.documentsTopic())).allTopicNames().get()
                    .get(options.documentsTopic());
            assertThat(config.get("retention.ms").value()).isEqualTo(Long.toString(java.time.Duration.ofDays(2).toMillis()));
            assertThat(config.get("min.insync.replicas").value()).isEqualTo("1");
            assertThat(description.partitions()).hasSize(3)
                    .allSatisfy(partition -> assertThat(partition.replicas()).hasSize(1));
            admin.deleteTopics(java.util.List.of(options.documentsTopic())).all().get();
        }
    }
}
