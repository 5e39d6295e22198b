package io.volumizer.jobs.internal;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.options.pipeline.CheckpointOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;

/** What every Volumizer job sets on its environment, whichever cluster runs it (tests' MiniClusters included). */
public final class JobDefaults {

    private JobDefaults() {
    }

    /**
     * The defaults, and the checkpoints of a pipeline step's run in a folder of their own (see
     * {@link Step#checkpointDirectory}), where {@code bin/volumizer job recover} finds the newest.
     */
    public static void apply(StreamExecutionEnvironment env, Step step, PipelineStepOptions options) {
        apply(env, options.pipeline.checkpoints);
        String clusterDirectory = env.getConfiguration().get(CheckpointingOptions.CHECKPOINTS_DIRECTORY);
        if (clusterDirectory != null) {
            Configuration checkpoints = new Configuration();
            checkpoints.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, step.checkpointDirectory(clusterDirectory, options));
            env.configure(checkpoints);
        }
    }

    public static void apply(StreamExecutionEnvironment env, CheckpointOptions checkpoints) {
        env.enableCheckpointing(checkpoints.interval.toMillis());
        env.getCheckpointConfig().setCheckpointTimeout(checkpoints.timeout.toMillis());
        // Kept when the job is cancelled or fails for good, and when the JobManager is lost: a step can then be
        // resumed from its newest checkpoint (bin/volumizer job recover), not only from a savepoint.
        env.getCheckpointConfig().setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        // Chained operators hand records on without a defensive deep copy: a profile of the index job showed 16% of
        // the TaskManager's samples in Avro deep copies. Safe here because no operator changes or keeps a record it
        // has emitted, and every operator that keeps its input (the bulk writers' batches) gets a new object per
        // record: decoders, the resolver and the generator build one each time.
        env.getConfig().enableObjectReuse();
    }
}
