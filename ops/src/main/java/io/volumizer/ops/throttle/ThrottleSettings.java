package io.volumizer.ops.throttle;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.volumizer.options.pipeline.TopicSettings;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.ThrottleSetting;
import io.volumizer.schemas.registry.SchemaRegistryClient;

/**
 * The throttles of a repository's steps and commands, on its compacted control topic, keyed by target: what the
 * jobs' throttled sources follow. Each change writes the target's whole setting, the others kept as they were.
 */
public final class ThrottleSettings {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    /** A change of one target's setting. */
    public sealed interface Change {
        ThrottleSetting.Builder applyTo(ThrottleSetting.Builder setting);

        /** At most this many documents a second; 0: no limit. */
        record Limit(double docsPerSecond) implements Change {
            public Limit {
                if (!(docsPerSecond >= 0) || Double.isInfinite(docsPerSecond)) {
                    throw new IllegalArgumentException("a limit is a number of documents a second, 0 or more; was " + docsPerSecond);
                }
            }

            @Override
            public ThrottleSetting.Builder applyTo(ThrottleSetting.Builder setting) {
                return setting.setDocsPerSecond(docsPerSecond);
            }
        }

        /** A limit (0: none) and whether paused, set together in one write. */
        record Setting(double docsPerSecond, boolean paused) implements Change {
            public Setting {
                new Limit(docsPerSecond); // the same check
            }

            @Override
            public ThrottleSetting.Builder applyTo(ThrottleSetting.Builder setting) {
                return setting.setDocsPerSecond(docsPerSecond).setPaused(paused);
            }
        }

        /** Paused, or resumed at the limit set. */
        record Paused(boolean paused) implements Change {
            @Override
            public ThrottleSetting.Builder applyTo(ThrottleSetting.Builder setting) {
                return setting.setPaused(paused);
            }
        }

        /** {@code 500}, {@code off}, {@code pause} or {@code resume}. */
        public static Change parse(String value) {
            return switch (value) {
                case "off" -> new Limit(0);
                case "pause" -> new Paused(true);
                case "resume" -> new Paused(false);
                default -> {
                    try {
                        yield new Limit(Double.parseDouble(value));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("a throttle is a number of documents a second, off, pause "
                                + "or resume; was '" + value + "'");
                    }
                }
            };
        }
    }

    private final Properties kafka;
    private final String topic;
    private final AvroCodec<ThrottleSetting> codec;
    private final int replicationFactor;
    private final Map<String, String> topicConfigs;

    public ThrottleSettings(Properties kafka, String registryUrl, String topic, TopicSettings topics) {
        this.kafka = kafka;
        this.topic = topic;
        this.codec = AvroCodec.forSpecific(new SchemaRegistryClient(registryUrl), AvroCodec.valueSubject(topic),
                ThrottleSetting.class);
        this.replicationFactor = topics.replicationFactor;
        this.topicConfigs = topics.controlConfigs();
    }

    /** Every target's setting now, by target. */
    public Map<String, ThrottleSetting> read() throws InterruptedException, ExecutionException, TimeoutException {
        ensureTopic();
        Map<String, ThrottleSetting> settings = new TreeMap<>();
        Properties config = new Properties();
        config.putAll(kafka);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the throttles on " + topic + " were not read within " + TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() == null) {
                        settings.remove(new String(record.key(), StandardCharsets.UTF_8));
                    } else {
                        ThrottleSetting setting = codec.decode(record.value());
                        settings.put(setting.getTarget(), setting);
                    }
                }
            }
        }
        return settings;
    }

    /**
     * Whether {@code target} is one a job obeys: a throttled step's id ({@link Step#throttled}), the text's index
     * jobs' ({@link IndexSettings.FileText#THROTTLE_TARGET}), or the id of one of a step's commands, a reindex or a
     * setAcl (its job obeys its own and its step's).
     */
    public static boolean isTarget(String target) {
        return isStep(target) || IndexSettings.FileText.THROTTLE_TARGET.equals(target)
                || Arrays.stream(Step.values()).anyMatch(step -> step.throttled() && step.isCommand(target));
    }

    /** Whether {@code target} is a throttled step's id. */
    public static boolean isStep(String target) {
        return Arrays.stream(Step.values()).anyMatch(step -> step.throttled() && step.id().equals(target));
    }

    /**
     * The targets a job of {@code step} submitted with {@code arguments} obeys, its own first, as its source follows
     * them ({@link PipelineStepOptions#throttleTargets}); none for a step whose jobs obey no throttle.
     *
     * @throws IllegalArgumentException for arguments that do not parse into the step's options
     */
    public static List<String> targetsOf(Step step, List<String> arguments) {
        return step.throttled() && step.parse(arguments) instanceof PipelineStepOptions options
                ? options.throttleTargets(step) : List.of();
    }

    /**
     * The control topic a job of {@code step} submitted with {@code arguments} follows; empty for a step that obeys
     * no throttle.
     *
     * @throws IllegalArgumentException for arguments that do not parse into the step's options
     */
    public static Optional<String> controlTopicOf(Step step, List<String> arguments) {
        return step.throttled() && step.parse(arguments) instanceof PipelineStepOptions options
                ? Optional.of(options.pipeline.controlTopic()) : Optional.empty();
    }

    /** What {@link #isTarget} accepts, for an error message. */
    public static String targets() {
        return steps() + ", " + IndexSettings.FileText.THROTTLE_TARGET + " (the index jobs of the files' text alone), "
                + "or a reindex or setAcl command's id";
    }

    /** The steps whose jobs obey a throttle, for an error message. */
    public static String steps() {
        return Arrays.stream(Step.values()).filter(Step::throttled).map(Step::id).collect(Collectors.joining(", "));
    }

    /**
     * Applies {@code change} to {@code target}'s setting (none: no limit, running); the new setting. A setting back
     * to no limit and running is removed from the topic (a tombstone), so that it no longer holds its jobs.
     * Two changes of one target at the same moment may lose one: a setting is read, then written.
     *
     * @throws IllegalArgumentException for a target no job obeys
     */
    public ThrottleSetting change(String target, Change change, String by)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (!isTarget(target)) {
            throw new IllegalArgumentException("no job obeys a throttle of '" + target + "'; targets: " + targets());
        }
        ThrottleSetting now = read().get(target);
        ThrottleSetting.Builder next = now != null ? ThrottleSetting.newBuilder(now)
                : ThrottleSetting.newBuilder().setTarget(target).setDocsPerSecond(0).setPaused(false);
        ThrottleSetting setting = change.applyTo(next).setChanged(Instant.now()).setChangedBy(by).build();
        Properties config = new Properties();
        config.putAll(kafka);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            boolean none = setting.getDocsPerSecond() <= 0 && !setting.getPaused();
            producer.send(new ProducerRecord<>(topic, target.getBytes(StandardCharsets.UTF_8),
                    none ? null : codec.encode(setting))).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        return setting;
    }

    private void ensureTopic() throws InterruptedException, ExecutionException, TimeoutException {
        try (Admin admin = Admin.create(kafka)) {
            if (!admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).contains(topic)) {
                admin.createTopics(List.of(new NewTopic(topic, TopicSettings.CONTROL_PARTITIONS, (short) replicationFactor)
                        .configs(topicConfigs))).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }
}
