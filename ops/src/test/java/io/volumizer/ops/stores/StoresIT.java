package io.volumizer.ops.stores;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.Set;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import io.volumizer.options.pipeline.PipelineOptions;

/** Against the local Kafka broker started by {@code bin/volumizer up}. */
class StoresIT {

    private final PipelineOptions pipeline = CommittedRecordCountIT.localPipeline();
    private final String topic = "it-bytes-" + UUID.randomUUID();

    @Test
    void aTopicsBytesAreWhatItsPartitionsLogsHoldOnce() throws Exception {
        // Values that no compression shrinks: 1,000 random letters each
        Random random = new Random(1);
        try (Stores stores = new Stores(pipeline); Admin admin = Admin.create(pipeline.kafka.clientProperties())) {
            assertThat(stores.topicBytes(topic)).as("no topic yet").isZero();
            admin.createTopics(Set.of(new NewTopic(topic, 2, (short) 1))).all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(pipeline.kafka.clientProperties(),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 100; i++) {
                    String value = random.ints(1000, 'a', 'z' + 1).collect(StringBuilder::new,
                            StringBuilder::appendCodePoint, StringBuilder::append).toString();
                    producer.send(new ProducerRecord<>(topic, "key-" + i, value));
                }
                producer.flush();
            }

            // 100 values of 1,000 letters (a compression keeps at least 5 bits of 8) and what Kafka's batches add:
            // far less than a second copy
            assertThat(stores.topicBytes(topic)).isBetween(60_000L, 150_000L);
        } finally {
            try (Stores stores = new Stores(pipeline)) {
                stores.deleteTopics(topic);
            }
        }
    }
}
