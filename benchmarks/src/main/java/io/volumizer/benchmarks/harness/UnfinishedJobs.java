package io.volumizer.benchmarks.harness;

import java.time.Duration;
import java.util.List;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.runs.ScopedRun;

/** A benchmark's jobs that a failed measure left running: the next run needs their slots. */
public final class UnfinishedJobs {

    private UnfinishedJobs() {
    }

    /** Cancels those of {@code jobs} not finished yet, as a scoped run does; one that cannot be is named, and left. */
    public static void cancel(FlinkSessionClient flink, List<String> jobs, Duration timeout) {
        ScopedRun.cancelUnfinished(flink, jobs, timeout);
    }
}
