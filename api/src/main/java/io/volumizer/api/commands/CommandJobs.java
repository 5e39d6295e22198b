package io.volumizer.api.commands;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.volumizer.options.steps.Step;

/**
 * How a command's job is started and stopped on the commands' session cluster: by its REST API ({@link RestCommandJobs},
 * a local cluster, or one the API reaches), or as a FlinkSessionJob the Flink Kubernetes Operator runs
 * ({@link FlinkSessionJobs}). Either way the job's state, exceptions and metrics are then read from the cluster's REST
 * API by its id.
 */
public interface CommandJobs {

    /**
     * Runs the command's job of {@code step} with {@code arguments} (the services' and the command's), from
     * {@code savepoint} when not null; a command's earlier job, ended, is replaced.
     *
     * @return the Flink job id
     */
    String run(String commandId, Step step, List<String> arguments, String savepoint) throws IOException;

    /** Stops the command's running job {@code jobId} with a savepoint and returns the savepoint's path once written. */
    String stopWithSavepoint(String commandId, String jobId, Duration timeout) throws IOException, InterruptedException;
}
