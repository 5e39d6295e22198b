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
}
