package io.volumizer.api.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.options.steps.Step;

/** Commands' jobs submitted through the session cluster's REST API: the jobs jar uploaded, then run. */
public final class RestCommandJobs implements CommandJobs {

    private final FlinkSessionClient flink;
    private final Path jobsJar;

    public RestCommandJobs(FlinkSessionClient flink, Path jobsJar) {
        this.flink = flink;
        this.jobsJar = jobsJar;
    }

    @Override
    public String run(String commandId, Step step, List<String> arguments, String savepoint) throws IOException {
        return flink.run(flink.uploadJar(jobsJar), step, arguments, savepoint);
    }

    @Override
    public String stopWithSavepoint(String commandId, String jobId, Duration timeout) throws IOException, InterruptedException {
        return flink.stopWithSavepoint(jobId, timeout);
    }
}
