package io.volumizer.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.flink.SessionOptions;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.options.steps.Step;

/**
 * A runner's jobs on the session cluster: the jobs jar uploaded once the cluster has the slots the runner needs,
 * each step submitted and its id kept, and at the end those a failed measure left running cancelled (the next run
 * needs their slots).
 */
public final class SessionJobs implements AutoCloseable {

    public final FlinkSessionClient flink;
    private final String jarId;
    private final Duration cancelTimeout;
    private final List<String> submitted = new ArrayList<>();

    private SessionJobs(FlinkSessionClient flink, String jarId, Duration cancelTimeout) {
        this.flink = flink;
        this.jarId = jarId;
        this.cancelTimeout = cancelTimeout;
    }

    /**
     * The jobs of {@code runner} ("the benchmark"), the jar uploaded; none, with why on stderr, when the cluster has
     * fewer than {@code slots} free: without them a job restarts until a timeout.
     */
    public static Optional<SessionJobs> open(SessionOptions session, int slots, String runner, Duration cancelTimeout)
            throws Exception {
        FlinkSessionClient flink = session.client();
        int free = flink.freeSlots();
        if (free < slots) {
            System.err.printf(Locale.ROOT, "%s needs %d free task slots, %s has %d: stop the running jobs "
                    + "(bin/volumizer job list) and try again%n", runner, slots, session.flink.rest, free);
            return Optional.empty();
        }
        return Optional.of(new SessionJobs(flink, flink.uploadJar(session.jar), cancelTimeout));
    }

    /** Submits a step; its id. */
    public String run(Step step, List<String> args) throws Exception {
        String id = flink.run(jarId, step, args, null);
        submitted.add(id);
        return id;
    }

    /** Cancels the jobs submitted that are not finished. */
    @Override
    public void close() {
        ScopedRun.cancelUnfinished(flink, submitted, cancelTimeout);
    }
}
