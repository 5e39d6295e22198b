package io.volumizer.jobs.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.options.steps.Step;

/**
 * Against the local Flink session cluster and Kafka: upload the jobs jar through REST (once per content), run the
 * smoke job, stop it with a savepoint, resume from the savepoint and see its keyed state continue where it stopped.
 */
class SessionClusterIT {

    private static final String BOOTSTRAP = System.getProperty("volumizer.kafka.bootstrap");

    private final FlinkSessionClient flink = new FlinkSessionClient(
            System.getProperty("volumizer.flink.rest"));
    private final String topic = "it-smoke-" + UUID.randomUUID();
    private final List<String> jobsToCancel = new ArrayList<>();
    private KafkaConsumer<String, String> consumer;

    @BeforeEach
    void subscribe() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP))) {
            admin.createTopics(Set.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, topic);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic));
    }

    @AfterEach
    void cleanUp() throws IOException, InterruptedException {
        consumer.close();
        for (String jobId : jobsToCancel) {
            if ("RUNNING".equals(flink.state(jobId))) {
                flink.cancel(jobId, Duration.ofMinutes(1));
            }
        }
    }

    @Test
    void stopWithSavepointAndResumeContinuesTheKeyedState() throws Exception {
        String jarId = flink.uploadJar(JobsJar.path());
        List<String> args = smokeArguments();

        String first = flink.run(jarId, Step.SMOKE, args, null);
        jobsToCancel.add(first);
        flink.awaitState(first, "RUNNING", Duration.ofSeconds(60));
        List<long[]> beforeStop = readAtLeast(300, new ArrayList<>());
        String savepoint = flink.stopWithSavepoint(first, Duration.ofSeconds(60));
        flink.awaitState(first, "FINISHED", Duration.ofSeconds(60));
        List<long[]> untilStop = readUntilQuiet(beforeStop);

        String resumed = flink.run(jarId, Step.SMOKE, args, savepoint);
        jobsToCancel.add(resumed);
        flink.awaitState(resumed, "RUNNING", Duration.ofSeconds(60));
        List<long[]> all = readAtLeast(untilStop.size() + 200, new ArrayList<>(untilStop));

        Map<Long, Long> lastCountBeforeStop = lastCountPerKey(untilStop);
        List<long[]> afterResume = all.subList(untilStop.size(), all.size());
        Map<Long, Long> firstCountAfterResume = new HashMap<>();
        afterResume.forEach(row -> firstCountAfterResume.putIfAbsent(row[0], row[2]));
        assertThat(lastCountBeforeStop).hasSize(4);
        assertThat(firstCountAfterResume).as("each key counts on from its count at the savepoint")
                .containsExactlyInAnyOrderEntriesOf(increment(lastCountBeforeStop));
        Set<Long> elementsBeforeStop = untilStop.stream().map(row -> row[1]).collect(Collectors.toSet());
        assertThat(afterResume).as("the source resumes where it stopped: no element is emitted again")
                .noneMatch(row -> elementsBeforeStop.contains(row[1]));
    }

    @Test
    void aJobStoppedWithASavepointJustAfterItsSubmissionStopsOnceItsTasksRun() throws Exception {
        String job = flink.run(flink.uploadJar(JobsJar.path()), Step.SMOKE, smokeArguments(), null);
        jobsToCancel.add(job);
        // No wait for RUNNING: its tasks are still deploying, and a savepoint triggered now would be refused.
        assertThat(flink.stopWithSavepoint(job, Duration.ofSeconds(60))).isNotBlank();
        flink.awaitState(job, "FINISHED", Duration.ofSeconds(60));
    }

    private List<String> smokeArguments() {
        return List.of("--bootstrap-servers", BOOTSTRAP, "--topic", topic, "--records", "0",
                "--records-per-second", "200", "--keys", "4", "--checkpoint-interval", "PT1S");
    }

    /**
     * Commons Logging 1.3+ adapts to the cluster's Log4j by registering with its LoggerContext, which the TaskManager
     * owns: each job that logged through it stayed loaded (about 21 MB of Metaspace per reindex). The jar carries
     * jcl-over-slf4j's Commons Logging, which hands over to the cluster's SLF4J and registers nothing.
     */
    @Test
    void theJobsJarsCommonsLoggingGoesThroughSlf4jAndLeavesNothingInTheClustersLog4j() throws IOException {
        try (JarFile jar = new JarFile(JobsJar.path().toFile())) {
            assertThat(jar.getEntry("org/apache/commons/logging/LogFactory.class")).isNotNull();
            assertThat(jar.getEntry("org/apache/commons/logging/impl/SLF4JLogFactory.class")).isNotNull();
            assertThat(jar.getEntry("org/apache/commons/logging/impl/Log4jApiLogFactory.class")).isNull();
        }
    }

    private static Map<Long, Long> lastCountPerKey(List<long[]> rows) {
        Map<Long, Long> last = new HashMap<>();
        rows.forEach(row -> last.merge(row[0], row[2], Math::max));
        return last;
    }

    private static Map<Long, Long> increment(Map<Long, Long> counts) {
        Map<Long, Long> next = new HashMap<>();
        counts.forEach((key, count) -> next.put(key, count + 1));
        return next;
    }

    /** Rows of key, element, count, in the order each key's partition holds them. */
    private List<long[]> readAtLeast(int wanted, List<long[]> rows) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (rows.size() < wanted && System.nanoTime() < deadline) {
            poll(rows);
        }
        assertThat(rows).as("records read from %s", topic).hasSizeGreaterThanOrEqualTo(wanted);
        return rows;
    }

    private List<long[]> readUntilQuiet(List<long[]> rows) {
        int before;
        do {
            before = rows.size();
            poll(rows);
            poll(rows);
        } while (rows.size() > before);
        return rows;
    }

    private void poll(List<long[]> rows) {
        consumer.poll(Duration.ofMillis(500)).forEach(record -> {
            String[] fields = record.value().split(",");
            rows.add(new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2])});
        });
    }
}
