package io.volumizer.benchmarks.reliability;

import java.time.Duration;

import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.pipeline.PipelineOptions;

/**
 * What a fault acts on: the local services, how long an outage lasts, the scenario's pipeline, and how to recover
 * its jobs after the JobManager was lost.
 */
record Faults(LocalServices services, Duration outage, PipelineOptions options, Recovery recover) {

    /** Resumes the scenario's jobs, as a user would, after the cluster lost them. */
    interface Recovery {
        void run() throws Exception;
    }
}
