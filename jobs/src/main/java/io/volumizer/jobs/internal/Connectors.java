package io.volumizer.jobs.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.avro.specific.SpecificRecord;

import io.volumizer.jobs.internal.kafka.AvroRecordSerializer;
import io.volumizer.jobs.internal.kafka.ProgressMarkWriter;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.jobs.internal.kafka.RawRecordDeserializer;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.CommandStepOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.registry.SchemaRegistryClient;

/** The real connectors the jobs' main methods wire in (tests pass their own sources and sinks instead). */
public final class Connectors {

    private Connectors() {
    }

    public static <T extends SpecificRecord> AvroCodec<T> codec(PipelineOptions options, String topic, Class<T> type) {
        return AvroCodec.forSpecific(new SchemaRegistryClient(options.registry.url), AvroCodec.valueSubject(topic), type);
    }

    /**
     * Reads a topic undecoded, from the offsets the group committed at its last checkpoint, else from the start.
     * Only committed transactions are read, so exactly-once upstream stays exactly-once here.
     */
    public static KafkaSource<RawRecord> rawSource(PipelineOptions options, String topic, String groupId) {
        return KafkaSource.<RawRecord>builder()
                .setProperties(options.kafka.clientProperties())
                .setBootstrapServers(options.kafka.bootstrapServers)
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(new RawRecordDeserializer())
                .setProperty("isolation.level", "read_committed")
                .setProperty("partition.discovery.interval.ms", "10000")
                .setProperty("commit.offsets.on.checkpoint", "true")
                // The consumer hands out one partition's fetched records before the next's: a throttled reader (a few
                // hundred documents a second) would take half a minute over a megabyte of one partition while the
                // parents its children wait for sat in the other. 64 KB a partition still fetches far faster than
                // the jobs read.
                .setProperty("max.partition.fetch.bytes", "65536")
                .build();
    }

    /**
     * Progress marks at the end of every partition of {@code topic}, for a job that reads it with event time: see
     * {@link io.volumizer.schemas.keys.ProgressMarks}.
     */
    public static ProgressMarkWriter progressMarks(PipelineOptions options, String topic, java.time.Duration interval) {
        return new ProgressMarkWriter(options.kafka.clientProperties(), topic, interval);
    }

    /** Writes Avro records in the Confluent wire format, exactly once (Kafka transactions committed on checkpoints). */
    private static <T> KafkaSink<T> exactlyOnceSink(PipelineOptions options, String topic, AvroCodec<T> codec,
            AvroRecordSerializer.KeyOf<T> keyOf, String transactionalIdPrefix) {
        return KafkaSink.<T>builder()
                .setKafkaProducerConfig(options.kafka.clientProperties())
                .setBootstrapServers(options.kafka.bootstrapServers)
                .setRecordSerializer(new AvroRecordSerializer<>(topic, codec, keyOf))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .setProperty("transaction.timeout.ms", "900000")
                // Fuller produce requests: a transaction is flushed at every checkpoint anyway, and the broker shares
                // the machine with the jobs (Kafka's default sends a batch as soon as the sender thread is free).
                .setProperty("linger.ms", "20")
                .setProperty("batch.size", "262144")
                .build();
    }

    /**
     * Writes a step's records to a topic exactly once; the transactions are named after the step and the topic,
     * so that a restarted job aborts what its previous attempt left open.
     */
    public static <T extends SpecificRecord> KafkaSink<T> exactlyOnceSink(PipelineOptions options, Step step,
            String topic, Class<T> type, AvroRecordSerializer.KeyOf<T> keyOf) {
        return exactlyOnceSink(options, topic, codec(options, topic, type), keyOf, step.jobName() + "-" + topic);
    }

    /**
     * A command's records to a topic exactly once; the transactions are named after the step, the command and the
     * topic: commands run side by side, and each must abort only what its own earlier attempt left open.
     */
    public static <T extends SpecificRecord> KafkaSink<T> exactlyOnceSink(CommandStepOptions command, Step step,
            String topic, Class<T> type, AvroRecordSerializer.KeyOf<T> keyOf) {
        return exactlyOnceSink(command.pipeline, topic, codec(command.pipeline, topic, type), keyOf,
                step.jobName() + "-" + command.commandId + "-" + topic);
    }

    /**
     * A command's records to a topic at least once, sent as they come rather than at checkpoints: for a command whose
     * events are idempotent (the same document at the same version), which waits for them to be applied.
     */
    public static <T extends SpecificRecord> KafkaSink<T> atLeastOnceSink(CommandStepOptions command, String topic,
            Class<T> type, AvroRecordSerializer.KeyOf<T> keyOf) {
        return KafkaSink.<T>builder()
                .setKafkaProducerConfig(command.pipeline.kafka.clientProperties())
                .setBootstrapServers(command.pipeline.kafka.bootstrapServers)
                .setRecordSerializer(new AvroRecordSerializer<>(topic, codec(command.pipeline, topic, type), keyOf))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .setProperty("linger.ms", "20")
                .build();
    }

    /**
     * A step's records to a topic exactly once, for a step whose runs may go side by side on one topic (CSV imports
     * of different files): the transactions are named after the run's instance too, so that one run never aborts
     * another's.
     */
    public static <T extends SpecificRecord> KafkaSink<T> exactlyOnceSink(PipelineStepOptions run, Step step,
            String topic, Class<T> type, AvroRecordSerializer.KeyOf<T> keyOf) {
        return exactlyOnceSink(run.pipeline, topic, codec(run.pipeline, topic, type), keyOf,
                step.jobName() + "-" + Integer.toHexString(run.instance().hashCode()) + "-" + topic);
    }

    /** A step's dead letters, keyed by the document id where one is known. */
    public static KafkaSink<DeadLetter> deadLetterSink(PipelineOptions options, Step step) {
        return exactlyOnceSink(options, step, options.deadletterTopic(), DeadLetter.class, DeadLetter::getDocumentId);
    }

    /** A run's dead letters (see {@link #exactlyOnceSink(PipelineStepOptions, Step, String, Class, AvroRecordSerializer.KeyOf)}). */
    public static KafkaSink<DeadLetter> deadLetterSink(PipelineStepOptions run, Step step) {
        return exactlyOnceSink(run, step, run.pipeline.deadletterTopic(), DeadLetter.class, DeadLetter::getDocumentId);
    }

    /** A command's dead letters (see {@link #exactlyOnceSink(CommandStepOptions, Step, String, Class, AvroRecordSerializer.KeyOf)}). */
    public static KafkaSink<DeadLetter> deadLetterSink(CommandStepOptions command, Step step) {
        return exactlyOnceSink(command, step, command.pipeline.deadletterTopic(), DeadLetter.class, DeadLetter::getDocumentId);
    }

    /** The execution environment with the pipeline's parallelism (0 keeps the cluster's default) and max parallelism. */
    public static StreamExecutionEnvironment environment(PipelineOptions options) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setMaxParallelism(options.maxParallelism);
        if (options.parallelism > 0) {
            env.setParallelism(options.parallelism);
        }
        return env;
    }

    /** How many partitions {@code topic} has now. */
    public static int partitionCount(PipelineOptions options, String topic) {
        try (Admin admin = Admin.create(options.kafka.clientProperties())) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe " + topic + " at " + options.kafka.bootstrapServers + ": "
                    + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topic, e);
        }
    }

    /** Creates the topics that do not exist yet. */
    public static void ensureTopics(PipelineOptions options, String... topics) {
        ensureTopics(options, options.topicSettings.configs(), options.partitions, topics);
    }

    /** Creates the topics that do not exist yet, of {@code partitions} partitions and these configs. */
    public static void ensureTopics(PipelineOptions options, Map<String, String> configs, int partitions, String... topics) {
        try (Admin admin = Admin.create(options.kafka.clientProperties())) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            for (String topic : topics) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, partitions, options.topicSettings.replicationFactor).configs(configs));
                }
            }
            try {
                admin.createTopics(missing).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics at " + options.kafka.bootstrapServers + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }
}
