package io.volumizer.ops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** A job's root exception read from the exceptions answer of either Flink line. */
class FlinkSessionClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void readsTheNewestEntryOfTheExceptionHistory() throws Exception {
        // Flink 2.x: the history alone, newest first.
        String answer = """
                {"exceptionHistory": {"entries": [
                  {"exceptionName": "java.lang.RuntimeException", "stacktrace": "java.lang.RuntimeException: injected failure\\n\\tat x",
                   "timestamp": 2, "concurrentExceptions": []},
                  {"exceptionName": "java.io.IOException", "stacktrace": "java.io.IOException: older", "timestamp": 1,
                   "concurrentExceptions": []}],
                  "truncated": false}}""";

        assertThat(FlinkSessionClient.rootException(JSON.readTree(answer))).startsWith("java.lang.RuntimeException: injected failure");
    }

    @Test
    void readsTheRootExceptionFieldOfFlink1() throws Exception {
        String answer = """
                {"root-exception": "java.lang.RuntimeException: injected failure", "timestamp": 2, "all-exceptions": [],
                 "truncated": false, "exceptionHistory": {"entries": [], "truncated": false}}""";

        assertThat(FlinkSessionClient.rootException(JSON.readTree(answer))).isEqualTo("java.lang.RuntimeException: injected failure");
    }

    @Test
    void isEmptyForAJobThatNeverFailed() throws Exception {
        assertThat(FlinkSessionClient.rootException(JSON.readTree("{\"exceptionHistory\": {\"entries\": [], \"truncated\": false}}")))
                .isEmpty();
    }

    @Test
    void aSavepointOfAnotherMaxParallelismIsRefusedWithTheOptionThatResumesIt() {
        java.io.IOException refused = new java.io.IOException("Flink could not run io.volumizer.jobs.imports.ImportJob: "
                + "HTTP 400 java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint Checkpoint Metadata. "
                + "Max parallelism mismatch between checkpoint/savepoint state and new program. Cannot map operator "
                + "6c738dc13b85b3eb8adf0188cbf38529 with max parallelism 128 to new program with max parallelism 4096.");

        assertThat(FlinkSessionClient.savepointRefusal(refused).getMessage())
                .endsWith("The savepoint's max parallelism is 128: resume it with --max-parallelism 128.");
        java.io.IOException other = new java.io.IOException("HTTP 400 no such jar");
        assertThat(FlinkSessionClient.savepointRefusal(other)).isSameAs(other);
    }

    @Test
    void aJobIsRestoredOnceEveryTaskRunsAndHasFailedToOnceItRestarted() throws Exception {
        String initializing = """
                {"state": "RUNNING", "timestamps": {"RUNNING": 5, "RESTARTING": 0, "FAILING": 0},
                 "vertices": [{"status": "RUNNING"}, {"status": "INITIALIZING"}]}""";
        String running = """
                {"state": "RUNNING", "timestamps": {"RUNNING": 5, "RESTARTING": 0, "FAILING": 0},
                 "vertices": [{"status": "RUNNING"}, {"status": "RUNNING"}]}""";
        // Running again after a restart: between two polls, the failed restore is only in the timestamps.
        String restarted = """
                {"state": "RUNNING", "timestamps": {"RUNNING": 9, "RESTARTING": 7, "FAILING": 6},
                 "vertices": [{"status": "RUNNING"}, {"status": "RUNNING"}]}""";

        assertThat(JobDetails.restored(JSON.readTree(initializing))).isNull();
        assertThat(JobDetails.restored(JSON.readTree(running))).isTrue();
        assertThat(JobDetails.restored(JSON.readTree(restarted))).isFalse();
        assertThat(JobDetails.restored(JSON.readTree("{\"state\": \"CREATED\", \"vertices\": []}"))).isNull();
    }

    @Test
    void aSavepointWaitsUntilEveryTaskOfAJustSubmittedJobRuns() throws Exception {
        assertThat(JobDetails.everyTaskRunning(JSON.readTree("""
                {"state": "RUNNING", "vertices": [{"status": "RUNNING"}, {"status": "DEPLOYING"}]}"""))).isFalse();
        assertThat(JobDetails.everyTaskRunning(JSON.readTree("""
                {"state": "RUNNING", "vertices": [{"status": "RUNNING"}, {"status": "FINISHED"}]}"""))).isTrue();
        assertThat(JobDetails.everyTaskRunning(JSON.readTree("""
                {"state": "RESTARTING", "vertices": [{"status": "RUNNING"}]}"""))).isFalse();
        assertThat(JobDetails.everyTaskRunning(JSON.readTree("{\"state\": \"RUNNING\", \"vertices\": []}")))
                .isFalse();
    }

    @Test
    void theRecordsAJobReadAreThoseItsSourceVerticesSentOn() throws Exception {
        assertThat(JobDetails.recordsSentBySources(JSON.readTree("""
                {"vertices": [
                  {"name": "Source: Progress ticks -> Progress marks to Kafka: Writer", "metrics": {"write-records": 0}},
                  {"name": "Source: Documents -> Drop progress marks", "metrics": {"write-records": 524713}},
                  {"name": "Decode and resolve ancestors -> Write to MongoDB", "metrics": {"write-records": 518410}}
                ]}"""))).isEqualTo(524_713);
    }

    @Test
    void theInnermostCauseOfAStackTraceIsItsLastCausedBy() {
        String trace = "java.lang.Exception: Exception while creating StreamOperatorStateContext.\n\tat x\n"
                + "Caused by: org.apache.flink.util.FlinkException: Could not restore keyed state backend\n\tat y\n"
                + "Caused by: java.lang.IllegalStateException: Missing value for the key 'org.apache.avro.generic.GenericData$Array'\n";

        assertThat(FlinkSessionClient.innermostCause(trace))
                .isEqualTo("java.lang.IllegalStateException: Missing value for the key 'org.apache.avro.generic.GenericData$Array'");
        assertThat(FlinkSessionClient.innermostCause("java.io.IOException: one line")).isEqualTo("java.io.IOException: one line");
    }
}
