package io.volumizer.jobs.pipeline;

import static io.volumizer.ops.runs.ScopedRun.FLINK;
import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.steps.Step;

/**
 * The pipeline through the faults an import of days meets: a TaskManager killed, MongoDB stopped mid-run, a replay
 * into stores that were restarted. What it must show is read from the stores and topics, never from job metrics:
 * every generated document stored and indexed once, and no good document dead-lettered.
 */
class ReliabilityIT {

    private static final int CUSTOMERS = 200;
    private static final int STATEMENTS = 60;

    private final LocalServices services = LocalServices.ofThisCheckout();
    private ScopedRun it;

    @BeforeEach
    void prepare() throws Exception {
        it = new ScopedRun(JobsJar.path());
    }

    @AfterEach
    void cleanUp() throws Exception {
        services.start("mongodb", "flink"); // back, whatever a failed test left down
        it.close();
    }

    @Test
    void aTaskManagerKilledMidRunLosesNothingAndDeadLettersNothing() throws Exception {
        long total = it.generated(CUSTOMERS, STATEMENTS).size();
        it.generate(CUSTOMERS, STATEMENTS);
        String job = it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-tm-" + it.run), null);
        awaitImported(total / 5);

        services.kill("flink-taskmanager");
        services.start("flink-taskmanager");

        await("documents in MongoDB", it::mongoCount, total, Duration.ofMinutes(4));
        await("documents in Elasticsearch", it::elasticsearchCount, total, Duration.ofMinutes(2));
        assertThat(it.deadLetters()).as("dead letters").isZero();
        assertThat(FLINK.exceptions(job)).as("the job lost its tasks").isNotEmpty();
    }

    @Test
    void aMongoDbOutageMidRunDeadLettersNoGoodDocument() throws Exception {
        long total = it.generated(CUSTOMERS, STATEMENTS).size();
        it.generate(CUSTOMERS, STATEMENTS);
        it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-outage-" + it.run), null);
        awaitImported(total / 5);

        long beforeTheOutage = it.mongoCount();
        services.stop("mongodb");
        Thread.sleep(15_000);
        services.start("mongodb");
        assertThat(beforeTheOutage).as("imported when MongoDB stopped: mid-run").isLessThan(total);

        await("documents in MongoDB", it::mongoCount, total, Duration.ofMinutes(4));
        await("documents in Elasticsearch", it::elasticsearchCount, total, Duration.ofMinutes(2));
        assertThat(it.deadLetters()).as("dead letters").isZero();
    }

    @Test
    void aReplayIntoTheStoresItFilledIsWrittenAndPassedOnAfterTheStoreRestarted() throws Exception {
        long total = it.generated(20, 12).size();
        it.generate(20, 12);
        String first = it.submit(Step.IMPORT, it.args("--group-id", "it-first-" + it.run), null);
        await("documents in MongoDB", it::mongoCount, total, Duration.ofMinutes(2));
        FLINK.cancel(first, Duration.ofMinutes(1));
        services.stop("mongodb");
        services.start("mongodb");

        // A new consumer group reads the documents topic from the start: every event is a replay of a stored version.
        String replayed = it.pipeline.importedTopic() + ".replayed";
        it.submit(Step.IMPORT, it.args("--group-id", "it-replay-" + it.run, "--imported-topic", replayed), null);

        await("replayed documents passed on to the imported topic", () -> it.stores.committedRecords(replayed), total,
                Duration.ofMinutes(2));
        assertThat(it.deadLetters()).as("dead letters").isZero();
        assertThat(it.mongoCount()).isEqualTo(total);
        it.stores.reset(it.repository, replayed);
    }

    /** Waits until at least {@code documents} are in MongoDB. */
    private void awaitImported(long documents) throws Exception {
        await("documents in MongoDB before the fault", () -> Math.min(it.mongoCount(), documents), documents,
                Duration.ofMinutes(2));
    }
}
