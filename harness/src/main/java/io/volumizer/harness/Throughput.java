package io.volumizer.harness;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

import io.volumizer.ops.flink.FlinkSessionClient;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A store's document count polled over a run, and what a fault did to it: the rate before the fault, and how long
 * after the fault ended the rate was back to half of it (or the run was done, whichever came first).
 */
public final class Throughput {

    /** How far back from a fault's start its "rate before" is measured. */
    public static final long BEFORE_MILLIS = 5_000;
    /** The window a rate after the fault is measured over. */
    public static final long WINDOW_MILLIS = 3_000;

    private record Sample(long millis, long count) {
    }

    private final List<Sample> samples = new ArrayList<>();

    public synchronized void record(long millis, long count) {
        samples.add(new Sample(millis, count));
    }

    /** Documents per second over the {@link #BEFORE_MILLIS} before {@code faultStart}. */
    public synchronized double rateBefore(long faultStart) {
        return rate(faultStart - BEFORE_MILLIS, faultStart).orElse(0);
    }

    /**
     * Milliseconds from {@code faultEnd} until the rate over the next {@link #WINDOW_MILLIS} is at least half of
     * {@code rateBefore}, or until the count reached {@code total}; empty if neither happened in what was recorded.
     */
    public synchronized OptionalDouble recoveryMillis(long faultEnd, double rateBefore, long total) {
        for (Sample sample : samples) {
            if (sample.millis < faultEnd) {
                continue;
            }
            if (sample.count >= total) {
                return OptionalDouble.of(sample.millis - faultEnd);
            }
            OptionalDouble rate = rate(sample.millis, sample.millis + WINDOW_MILLIS);
            if (rate.isPresent() && rate.getAsDouble() >= rateBefore / 2) {
                return OptionalDouble.of(sample.millis - faultEnd);
            }
        }
        return OptionalDouble.empty();
    }

    /** When the first sample was taken; empty before any. */
    public synchronized OptionalLong firstMillis() {
        return samples.isEmpty() ? OptionalLong.empty() : OptionalLong.of(samples.get(0).millis);
    }

    /** When the count first reached {@code total}; empty if it did not in what was recorded. */
    public synchronized OptionalLong reached(long total) {
        return samples.stream().filter(sample -> sample.count >= total).mapToLong(Sample::millis).findFirst();
    }

    /** The rate between the last sample at or before {@code from} and the last at or before {@code to}. */
    public synchronized OptionalDouble rate(long from, long to) {
        Sample first = null;
        Sample last = null;
        for (Sample sample : samples) {
            if (sample.millis <= from) {
                first = sample;
            }
            if (sample.millis <= to) {
                last = sample;
            }
        }
        if (first == null || last == null || last.millis <= first.millis || last.millis < to - 1_000) {
            return OptionalDouble.empty(); // not enough recorded yet over that window
        }
        return OptionalDouble.of((last.count - first.count) * 1000.0 / (last.millis - first.millis));
    }

    /** How long the faults lasted, from the first harm to the service being back (and the jobs recovered). */
    public static Double faultSeconds(List<long[]> windows) {
        return windows.isEmpty() ? null : windows.stream().mapToLong(w -> w[1] - w[0]).sum() / 1000.0;
    }

    /** The slowest recovery of any fault window, over both stores' throughput; null when there was no fault. */
    public static Double recoverySeconds(List<Throughput> stages, List<long[]> windows, long started, long total) {
        double slowest = -1;
        for (long[] window : windows) {
            long start = window[0] - started;
            long end = window[1] - started;
            for (Throughput stage : stages) {
                double before = stage.rateBefore(start);
                if (before <= 0) {
                    continue; // the stage had not started, or was done, when the fault began
                }
                OptionalDouble recovery = stage.recoveryMillis(end, before, total);
                slowest = Math.max(slowest, recovery.isPresent() ? recovery.getAsDouble() / 1000 : Double.MAX_VALUE);
            }
        }
        return slowest < 0 ? null : slowest;
    }

    /** The median state size and duration of the running jobs' checkpoints, summed over the jobs. */
    public static long[] checkpointMedians(FlinkSessionClient flink, Collection<String> running) throws IOException {
        long[] medians = new long[2];
        for (String job : running) {
            com.fasterxml.jackson.databind.JsonNode summary = flink.checkpoints(job).path("summary");
            medians[0] += summary.path("state_size").path("p50").asLong();
            medians[1] += summary.path("end_to_end_duration").path("p50").asLong();
        }
        return medians;
    }
}
