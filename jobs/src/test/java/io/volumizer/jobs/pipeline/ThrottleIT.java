package io.volumizer.jobs.pipeline;

import static io.volumizer.ops.runs.ScopedRun.FLINK;
import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.throttle.ThrottleCommand;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.ops.throttle.ThrottleSettings.Change;
import io.volumizer.options.Options;
import io.volumizer.options.steps.Step;
import picocli.CommandLine;

/**
 * A running import throttled, paused and resumed on its repository's control topic, as {@code bin/volumizer
 * throttle} does: nothing is written while paused, not even by a job restarted after its TaskManager was lost, and
 * every document is in both stores once resumed. (How closely a limit is kept is measured by the benchmark.)
 */
class ThrottleIT {

    private static final int CUSTOMERS = 100;
    private static final int STATEMENTS = 24;
    /** Longer than a change takes to be obeyed (2 s), and than the records in flight take to be written. */
    private static final Duration SETTLE = Duration.ofSeconds(4);

    private final LocalServices services = LocalServices.ofThisCheckout();
    private ScopedRun it;
    private ThrottleSettings throttles;

    @BeforeEach
    void prepare() throws Exception {
        it = new ScopedRun(JobsJar.path());
        throttles = new ThrottleSettings(it.pipeline.kafka.clientProperties(), it.pipeline.registry.url,
                it.pipeline.controlTopic(), it.pipeline.topicSettings);
    }

    @AfterEach
    void cleanUp() throws Exception {
        services.start("flink"); // back, whatever a failed test left down
        it.close();
    }

    @Test
    void aPausedImportWritesNothingUntilResumedAlsoAfterItsTaskManagerWasLost() throws Exception {
        String target = Step.IMPORT_AND_INDEX.id();
        long total = it.generated(CUSTOMERS, STATEMENTS).size();
        it.generate(CUSTOMERS, STATEMENTS);
        throttles.change(target, new Change.Limit(total / 20.0), "ThrottleIT"); // twenty seconds' worth
        String job = it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-throttle-" + it.run), null);
        await("documents in MongoDB at the limit", () -> Math.min(it.mongoCount(), total / 5), total / 5,
                Duration.ofMinutes(2));

        throttles.change(target, new Change.Paused(true), "ThrottleIT");
        Thread.sleep(SETTLE.toMillis());
        long paused = it.mongoCount();
        Thread.sleep(SETTLE.toMillis());
        assertThat(it.mongoCount()).as("nothing written while paused").isEqualTo(paused).isLessThan(total);
        String limit = String.format(Locale.ROOT, "%,.0f docs/s", total / 20.0);
        // The cluster's REST API answers metrics from a cache it refreshes every 10 s (metrics.fetcher.update-interval):
        // the job's own limit shows once a fetch has followed the job's first reading of its control topic.
        await("the job's own limit listed", () -> listedLine(job).contains("its limit now " + limit) ? 1 : 0, 1,
                Duration.ofSeconds(30));
        assertThat(listedLine(job)).contains(target + " paused (" + limit + " once resumed)",
                "its limit now " + limit);
        // Listed from a control topic the job does not follow: that topic's settings are not the job's.
        String other = "other" + it.run;
        assertThat(throttles(List.of("--topics-of", other, target, "100")))
                .contains("warning: no running job follows volumizer." + other + ".control", job);
        assertThat(listedLine(job, "--topics-of", other)).contains("follows " + it.pipeline.controlTopic()
                + ", not this topic", "its limit now " + limit).doesNotContain("100 docs/s");
        throttles(List.of("--topics-of", other, target, "off"));

        services.kill("flink-taskmanager");
        services.start("flink-taskmanager");
        await("the job's failure over its lost tasks", () -> failures(job), 1, Duration.ofMinutes(2));
        FLINK.awaitState(job, "RUNNING", Duration.ofMinutes(2));
        Thread.sleep(SETTLE.toMillis() * 2);
        assertThat(it.mongoCount()).as("still paused once restarted: the control topic is read again").isEqualTo(paused);

        throttles.change(target, new Change.Limit(0), "ThrottleIT");
        throttles.change(target, new Change.Paused(false), "ThrottleIT");
        await("documents in MongoDB", it::mongoCount, total, Duration.ofMinutes(3));
        await("documents in Elasticsearch", it::elasticsearchCount, total, Duration.ofMinutes(2));
        assertThat(it.deadLetters()).as("dead letters").isZero();
        assertThat(throttles.read()).as("no limit and running: no setting left").doesNotContainKey(target);
    }

    /** The line of {@code bin/volumizer throttle}'s listing, on the topics {@code topicsOf} names, about {@code job}. */
    private String listedLine(String job, String... topicsOf) {
        return throttles(List.of(topicsOf)).lines().filter(line -> line.contains("job " + job)).findFirst()
                .orElseThrow(() -> new AssertionError("job " + job + " not listed"));
    }

    /** What {@code bin/volumizer throttle} prints with {@code args}, on this run's Kafka and Flink. */
    private String throttles(List<String> args) {
        List<String> all = new ArrayList<>(Options.arguments(it.pipeline.kafka));
        all.addAll(Options.arguments(it.pipeline.registry));
        all.addAll(List.of("--flink-rest", ScopedRun.FLINK_REST));
        all.addAll(args);
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            assertThat(new CommandLine(new ThrottleCommand()).execute(all.toArray(String[]::new))).isZero();
        } finally {
            System.setOut(stdout);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    /** 1 once the job has failed over at least once (its exceptions' history is not empty), else 0. */
    private static long failures(String job) {
        try {
            return FLINK.exceptions(job).isBlank() ? 0 : 1;
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
