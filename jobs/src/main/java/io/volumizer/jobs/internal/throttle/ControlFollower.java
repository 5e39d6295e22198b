package io.volumizer.jobs.internal.throttle;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.event.ThrottleSetting;

/**
 * Follows a control topic on a thread of its own: reads it from the start (it is compacted: the last setting of
 * each target), then as it changes, and tells its listener what its targets' settings together allow: paused if
 * any is, the lowest of their limits (a job is held by its own throttle, a command's or file-text, and by its step's). It tells nothing
 * before it has read up to the topic's end as of its start, nor after a reconnection until it has read it again:
 * a job restarted while paused stays paused, and a re-read never replays old settings. It never fails: a Kafka or
 * a registry it cannot reach is logged and the last setting kept until it can; a record that is no setting is
 * logged and skipped.
 */
final class ControlFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlFollower.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration AFTER_FAILURE = Duration.ofSeconds(1);

    private final Properties kafka;
    private final String topic;
    private final AvroCodec<ThrottleSetting> codec;
    private final List<String> targets;
    private final Consumer<Optional<ThrottleSetting>> listener;
    private final Map<String, ThrottleSetting> settings = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile KafkaConsumer<byte[], byte[]> consumer;

    /**
     * @param targets  the keys obeyed, first first: the job's own (a command's id, file-text), then its step's
     * @param listener told the setting obeyed (none: no limit) once the topic is read to its end, then at each change
     */
    ControlFollower(Properties kafka, String topic, AvroCodec<ThrottleSetting> codec, List<String> targets,
            Consumer<Optional<ThrottleSetting>> listener) {
        this.kafka = kafka;
        this.topic = topic;
        this.codec = codec;
        this.targets = List.copyOf(targets);
        this.listener = listener;
        this.thread = new Thread(this::follow, "throttle " + topic + " " + targets);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void follow() {
        while (running) {
            boolean caughtUp = false;
            try (KafkaConsumer<byte[], byte[]> consumer = newConsumer()) {
                this.consumer = consumer;
                if (!running) {
                    return; // closed while connecting: close() found no consumer to wake
                }
                List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                        .map(info -> new TopicPartition(topic, info.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
                settings.clear();
                while (running) {
                    boolean changed = false;
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                        changed |= read(record);
                    }
                    if (!caughtUp && partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                        caughtUp = true;
                        changed = true;
                    }
                    if (changed && caughtUp) {
                        listener.accept(obeyed());
                    }
                }
            } catch (RuntimeException e) {
                if (running) {
                    LOG.warn("cannot follow the throttles on {}: {}; the last setting holds, trying again", topic,
                            e.toString());
                    sleep(AFTER_FAILURE);
                }
            }
        }
    }

    /** Whether the record changed a setting of the targets. */
    private boolean read(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return record.key() != null && settings.remove(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8)) != null;
        }
        ThrottleSetting setting;
        try {
            setting = codec.decode(record.value());
        } catch (WireFormatException unreadable) {
            if (unreadable.kind() == WireFormatException.Kind.REGISTRY_UNAVAILABLE) {
                throw unreadable; // not the record's fault: read again from the start once the registry answers
            }
            LOG.warn("throttle record {}@{} of {} ignored: {}", record.partition(), record.offset(), topic, unreadable.toString());
            return false;
        }
        if (!targets.contains(setting.getTarget())) {
            return false;
        }
        settings.put(setting.getTarget(), setting);
        return true;
    }

    /** What the targets' settings together allow: paused if any is, else the lowest limit of those that have one. */
    private Optional<ThrottleSetting> obeyed() {
        List<ThrottleSetting> set = targets.stream().map(settings::get).filter(java.util.Objects::nonNull).toList();
        return set.stream().filter(ThrottleSetting::getPaused).findFirst()
                .or(() -> set.stream().filter(s -> s.getDocsPerSecond() > 0)
                        .min(java.util.Comparator.comparingDouble(ThrottleSetting::getDocsPerSecond)))
                .or(() -> set.stream().findFirst());
    }

    private KafkaConsumer<byte[], byte[]> newConsumer() {
        Properties config = new Properties();
        config.putAll(kafka);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops following: the consumer is woken (an interrupt would make it log its own close as an error). */
    @Override
    public void close() {
        running = false;
        KafkaConsumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            thread.join(AFTER_FAILURE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
