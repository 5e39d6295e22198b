package io.volumizer.benchmarks.harness;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.volumizer.ops.flink.FlinkSessionClient;

/** A benchmark's jobs that a failed measure left running: the next run needs their slots. */
public final class UnfinishedJobs {

    private UnfinishedJobs() {
    }

    /** Cancels those of {@code jobs} not finished yet; one that cannot be is named, and left. */
    public static void cancel(FlinkSessionClient flink, List<String> jobs, Duration timeout) {
        for (String job : jobs) {
            try {
                if (!FlinkSessionClient.isTerminal(flink.state(job))) {
                    flink.cancel(job, timeout);
                }
            } catch (Exception e) {
                System.err.printf(Locale.ROOT, "  could not cancel job %s, left on the cluster: %s%n", job, e.getMessage());
            }
        }
    }
}
