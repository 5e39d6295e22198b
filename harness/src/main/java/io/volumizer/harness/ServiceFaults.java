package io.volumizer.harness;

import java.time.Duration;

import io.volumizer.ops.services.LocalServices;

/**
 * The one vocabulary of the faults the runners do to the local services; each returns its window, when it began
 * and when it was over (epoch milliseconds), which a runner's recovery is measured from.
 */
public record ServiceFaults(LocalServices services) {

    /** The session cluster's (first) TaskManager. */
    public static final String TASKMANAGER = "flink-taskmanager";
    /** The session cluster's JobManager. */
    public static final String JOBMANAGER = "flink-jobmanager";

    /** Kills a service (SIGKILL), then starts it again. */
    public long[] kill(String service) {
        long start = System.currentTimeMillis();
        services.kill(service);
        services.start(service);
        return new long[] {start, System.currentTimeMillis()};
    }

    /** Stops a service for {@code outage}, then starts it again, also when interrupted during the outage. */
    public long[] down(String service, Duration outage) throws InterruptedException {
        long start = System.currentTimeMillis();
        services.stop(service);
        try {
            Thread.sleep(outage.toMillis());
        } finally {
            boolean interrupted = Thread.interrupted(); // else starting it would fail at its first wait
            services.start(service);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return new long[] {start, System.currentTimeMillis()};
    }
}
