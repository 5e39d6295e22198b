package io.volumizer.benchmarks.reliability;

import java.time.Duration;

import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.pipeline.PipelineOptions;

/**
 * What a fault acts on: the local services, how long an outage lasts, the scenario's pipeline, how to recover its
 * jobs after the JobManager was lost, how to stop them with a savepoint for the outage and resume them, and how to
 * resume them so at another parallelism.
 *
 * @param searchService the local service of the pipeline's search engine: elasticsearch or opensearch
 */
record Faults(LocalServices services, Duration outage, PipelineOptions options, Recovery recover, Recovery pause,
        Rescale rescale, String searchService) {

    /** Something done to the scenario's jobs, as a user would do it. */
    interface Recovery {
        void run() throws Exception;
    }

    /** The scenario's jobs stopped with a savepoint and resumed from it at another parallelism. */
    interface Rescale {
        void to(int parallelism) throws Exception;
    }
}
