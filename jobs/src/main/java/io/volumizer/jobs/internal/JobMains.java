package io.volumizer.jobs.internal;

import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.options.Options;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.RunArguments;
import io.volumizer.options.steps.Step;

/**
 * What every pipeline job's {@code main()} does: parse its options (or print its help and stop), build the job on
 * the real connectors the options name, and run it as a run of its step: with the pipeline's parallelism, the
 * step's defaults and checkpoint folder ({@link JobDefaults}), under the step's run name, with the arguments it was
 * given among its job parameters ({@link RunArguments}).
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
            // Kept with the job, for `job resume <step>` to resume it by name with the options it ran with.
            env.getConfig().setGlobalJobParameters(Configuration.fromMap(RunArguments.parameters(List.of(args))));
            job.build(env);
            env.execute(job.runName(step.runName(parsed)));
        }
    }
}
