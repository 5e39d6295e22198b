package io.volumizer.jobs.internal;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.options.Options;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;

/**
 * What every pipeline job's {@code main()} does: parse its options (or print its help and stop), build the job on
 * the real connectors the options name, and run it as a run of its step: with the pipeline's parallelism, the
 * step's defaults and checkpoint folder ({@link JobDefaults}), under the step's run name.
 */
public final class JobMains {

    /** A job graph, ready to be added to an execution environment. */
    public interface Job {
        void build(StreamExecutionEnvironment env);

        /** The name the job runs under, as the Web UI lists it: by default its step's run name. */
        default String runName(String stepRunName) {
            return stepRunName;
        }
    }

    /** Builds a job on the real connectors its options name. */
    public interface Factory<T> {
        Job create(T options) throws Exception;
    }

    private JobMains() {
    }

    public static <T extends PipelineStepOptions> void run(Step step, T options, String[] args, Factory<T> factory)
            throws Exception {
        T parsed = Options.parse(options, args);
        if (parsed != null) {
            Job job = factory.create(parsed);
            StreamExecutionEnvironment env = Connectors.environment(parsed.pipeline);
            JobDefaults.apply(env, step, parsed);
            job.build(env);
            env.execute(job.runName(step.runName(parsed)));
        }
    }
}
