package io.volumizer.ops.flink;

import com.fasterxml.jackson.databind.JsonNode;

/** What a job's details (GET /jobs/{id}) say about its tasks and its sources, for {@link FlinkSessionClient}'s waits. */
final class JobDetails {

    private JobDetails() {
    }

    /**
     * {@code true} once every task runs (or has finished), {@code false} once the job has failed or restarted (its
     * state's timestamps keep the last time it entered each), else {@code null}: tasks still initializing, which is
     * when they read their state.
     */
    static Boolean restored(JsonNode job) {
        JsonNode timestamps = job.path("timestamps");
        String state = job.path("state").asText();
        if (timestamps.path("RESTARTING").asLong() > 0 || timestamps.path("FAILING").asLong() > 0
                || FlinkSessionClient.isTerminal(state) && !state.equals("FINISHED")) {
            return false;
        }
        return (state.equals("RUNNING") || state.equals("FINISHED")) && everyVertexRunningOrFinished(job) ? true : null;
    }

    /** Whether every task of the running job runs (or has finished), which a savepoint needs. */
    static boolean everyTaskRunning(JsonNode job) {
        return job.path("state").asText().equals("RUNNING") && everyVertexRunningOrFinished(job);
    }

    /** The records the job's source vertices have sent on (their write-records). */
    static long recordsSentBySources(JsonNode job) {
        long sent = 0;
        for (JsonNode vertex : job.path("vertices")) {
            if (vertex.path("name").asText().startsWith("Source:")) {
                sent += vertex.path("metrics").path("write-records").asLong();
            }
        }
        return sent;
    }

    private static boolean everyVertexRunningOrFinished(JsonNode job) {
        if (job.path("vertices").isEmpty()) {
            return false;
        }
        for (JsonNode vertex : job.path("vertices")) {
            String status = vertex.path("status").asText();
            if (!status.equals("RUNNING") && !status.equals("FINISHED")) {
                return false;
            }
        }
        return true;
    }
}
