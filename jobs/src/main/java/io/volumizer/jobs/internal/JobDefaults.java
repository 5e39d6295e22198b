package io.volumizer.jobs.internal;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.volumizer.options.pipeline.CheckpointOptions;

/** What every Volumizer job sets on its environment, whichever cluster runs it (tests' MiniClusters included). */
public final class JobDefaults {

    private JobDefaults() {
    }

    public static void apply(StreamExecutionEnvironment env, CheckpointOptions checkpoints) {
        env.enableCheckpointing(checkpoints.interval.toMillis());
        // Chained operators hand records on without a defensive deep copy: a profile of the index job showed 16% of
        // the TaskManager's samples in Avro deep copies. Safe here because no operator changes or keeps a record it
        // has emitted, and every operator that keeps its input (the bulk writers' batches) gets a new object per
        // record: decoders, the resolver and the generator build one each time.
        env.getConfig().enableObjectReuse();
    }
}
