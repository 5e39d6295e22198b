package io.volumizer.jobs.internal;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.options.Options;
import io.volumizer.options.steps.PipelineStepOptions;

/**
 * What every pipeline job's {@code main()} does: parse its options (or print its help and stop), build the job on
 * the real connectors the options name, and run it with the pipeline's parallelism.
 */
public final class JobMains {

    /** A job graph, ready to run on an execution environment. */
    public interface Job {
        JobExecutionResult run(StreamExecutionEnvironment env) throws Exception;
    }

    /** Builds a job on the real connectors its options name. */
    public interface Factory<T> {
        Job create(T options) throws Exception;
    }

    private JobMains() {
    }

    public static <T extends PipelineStepOptions> void run(T options, String[] args, Factory<T> factory) throws Exception {
        T parsed = Options.parse(options, args);
        if (parsed != null) {
            factory.create(parsed).run(Connectors.environment(parsed.pipeline));
        }
    }
}
