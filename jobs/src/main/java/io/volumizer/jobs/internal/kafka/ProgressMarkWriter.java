package io.volumizer.jobs.internal.kafka;

import java.io.Serializable;
import java.time.Duration;
import java.util.Properties;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.volumizer.schemas.keys.ProgressMarks;

/**
 * Writes a {@link ProgressMarks progress mark} at the end of every partition of a topic, once per interval, while the
 * job that reads the topic runs: one tick source and one sink, of parallelism 1. A mark that cannot be written (the
 * broker is away) is skipped; the next tick writes another, and meanwhile the reader's event time waits, as it should.
 */
public record ProgressMarkWriter(Properties producerConfig, String topic, Duration interval) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Adds the tick source and the sink to {@code env}, with uids under {@code uidPrefix}. */
    public void addTo(StreamExecutionEnvironment env, String uidPrefix) {
        DataGeneratorSource<Long> ticks = new DataGeneratorSource<>(index -> index, Long.MAX_VALUE,
                RateLimiterStrategy.perSecond(1000.0 / interval.toMillis()), Types.LONG);
        env.fromSource(ticks, WatermarkStrategy.noWatermarks(), "Progress ticks").uid(uidPrefix + ".progress-ticks")
                .setParallelism(1)
                .sinkTo(new MarkSink(producerConfig, topic)).uid(uidPrefix + ".progress-marks")
                .name("Progress marks to Kafka").setParallelism(1);
    }

    private record MarkSink(Properties producerConfig, String topic) implements Sink<Long> {

        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<Long> createWriter(WriterInitContext context) {
            return new MarkWriter(producerConfig, topic);
        }
    }

    private static final class MarkWriter implements SinkWriter<Long> {

        private static final Logger LOG = LoggerFactory.getLogger(MarkWriter.class);

        private final KafkaProducer<byte[], byte[]> producer;
        private final String topic;
        private boolean failing;

        MarkWriter(Properties config, String topic) {
            Properties marks = new Properties();
            marks.putAll(config);
            // A mark is worth nothing late: never block the sink on a broker that is away for longer than a tick.
            marks.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "2000");
            marks.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
            marks.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
            this.producer = new KafkaProducer<>(marks, new ByteArraySerializer(), new ByteArraySerializer());
            this.topic = topic;
        }

        @Override
        public void write(Long tick, Context context) {
            try {
                for (PartitionInfo partition : producer.partitionsFor(topic)) {
                    RecordHeaders headers = new RecordHeaders();
                    headers.add(ProgressMarks.HEADER, ProgressMarks.HEADER_VALUE);
                    producer.send(new ProducerRecord<>(topic, partition.partition(), null, null, null, headers),
                            (metadata, error) -> noteOutcome(error));
                }
            } catch (RuntimeException brokerAway) {
                noteOutcome(brokerAway);
            }
        }

        /** Logs a change between writing and failing, not every mark. */
        private synchronized void noteOutcome(Exception error) {
            if (error != null && !failing) {
                LOG.warn("progress marks to {} not written ({}); the import's event time waits until they are", topic,
                        error.toString());
            } else if (error == null && failing) {
                LOG.info("progress marks to {} written again", topic);
            }
            failing = error != null;
        }

        @Override
        public void flush(boolean endOfInput) {
            // Marks need no flush at a checkpoint: they carry no data, and a lost one is followed by the next.
        }

        @Override
        public void close() {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
