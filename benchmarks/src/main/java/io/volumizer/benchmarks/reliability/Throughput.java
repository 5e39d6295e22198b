package io.volumizer.benchmarks.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A store's document count polled over a run, and what a fault did to it: the rate before the fault, and how long
 * after the fault ended the rate was back to half of it (or the run was done, whichever came first).
 */
final class Throughput {

    /** How far back from a fault's start its "rate before" is measured. */
    static final long BEFORE_MILLIS = 5_000;
    /** The window a rate after the fault is measured over. */
    static final long WINDOW_MILLIS = 3_000;

    private record Sample(long millis, long count) {
    }

    private final List<Sample> samples = new ArrayList<>();

    synchronized void record(long millis, long count) {
        samples.add(new Sample(millis, count));
    }

    /** Documents per second over the {@link #BEFORE_MILLIS} before {@code faultStart}. */
    synchronized double rateBefore(long faultStart) {
        return rate(faultStart - BEFORE_MILLIS, faultStart).orElse(0);
    }

    /**
     * Milliseconds from {@code faultEnd} until the rate over the next {@link #WINDOW_MILLIS} is at least half of
     * {@code rateBefore}, or until the count reached {@code total}; empty if neither happened in what was recorded.
     */
    synchronized OptionalDouble recoveryMillis(long faultEnd, double rateBefore, long total) {
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
    synchronized OptionalLong firstMillis() {
        return samples.isEmpty() ? OptionalLong.empty() : OptionalLong.of(samples.get(0).millis);
    }

    /** When the count first reached {@code total}; empty if it did not in what was recorded. */
    synchronized OptionalLong reached(long total) {
        return samples.stream().filter(sample -> sample.count >= total).mapToLong(Sample::millis).findFirst();
    }

    /** The rate between the last sample at or before {@code from} and the last at or before {@code to}. */
    synchronized OptionalDouble rate(long from, long to) {
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
}
