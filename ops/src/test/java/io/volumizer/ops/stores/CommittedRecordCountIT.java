package io.volumizer.ops.stores;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;

/** Against the local Kafka broker started by {@code bin/volumizer up}. */
class CommittedRecordCountIT {

    private final PipelineOptions pipeline = localPipeline();

    /** The pipeline's options on the local services, or the ones the build names. */
    static PipelineOptions localPipeline() {
        return Options.parse(new PipelineOptions(),
                "--bootstrap-servers", System.getProperty("volumizer.kafka.bootstrap"),
                "--registry-url", System.getProperty("volumizer.registry.url"),
                "--mongodb-uri", System.getProperty("volumizer.mongodb.uri"),
                "--search-url", System.getProperty("volumizer.search.url." + System.getProperty("volumizer.search.engine")));
    }
    private final String topic = "it-committed-" + UUID.randomUUID();

    @Test
    void countsTheCommittedRecordsAsTheyComeAndNeitherAbortedOnesNorATopicNotThereYet() throws Exception {
        try (Stores stores = new Stores(pipeline); CommittedRecordCount count = stores.committedRecordCount(topic);
             CommittedRecordCount byValue = stores.committedRecordCount(topic,
                     value -> new String(value, StandardCharsets.UTF_8));
             Admin admin = Admin.create(pipeline.kafka.clientProperties())) {
            assertThat(count.count()).isZero();
            assertThat(admin.listTopics().names().get()).doesNotContain(topic);

            admin.createTopics(Set.of(new NewTopic(topic, 2, (short) 1))).all().get();
            try (KafkaProducer<String, String> producer = transactionalProducer()) {
                producer.initTransactions();
                send(producer, 3, true);
                assertThat(awaitAtLeast(count::count, 3)).isEqualTo(3);

                send(producer, 2, false);
                send(producer, 1, true);
                // The aborted records come before the last committed one: counted, they would have made it 6.
                assertThat(awaitAtLeast(count::count, 4)).isEqualTo(4);
                assertThat(awaitAtLeast(byValue::count, 4)).isEqualTo(4);
                assertThat(byValue.byKey()).containsExactlyInAnyOrderEntriesOf(
                        Map.of("record-0", 2L, "record-1", 1L, "record-2", 1L));
            }
        } finally {
            try (Stores stores = new Stores(pipeline)) {
                stores.deleteTopics(topic);
            }
        }
    }

    private KafkaProducer<String, String> transactionalProducer() {
        Properties config = pipeline.kafka.clientProperties();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private void send(KafkaProducer<String, String> producer, int records, boolean commit) {
        producer.beginTransaction();
        for (int i = 0; i < records; i++) {
            producer.send(new ProducerRecord<>(topic, "key-" + i, "record-" + i));
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
    }

    /** The count once it reached {@code least}, or as it is after a minute. */
    private static long awaitAtLeast(LongSupplier count, long least) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        long seen = count.getAsLong();
        while (seen < least && System.nanoTime() < deadline) {
            Thread.sleep(100);
            seen = count.getAsLong();
        }
        return seen;
    }
}
