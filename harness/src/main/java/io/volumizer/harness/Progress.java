package io.volumizer.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a count of documents grew during one measured run. Two rates come out of it: the whole run's, from the first
 * document seen (or the loop's start) to the last, and the sustained rate between 50% and 90% of the documents,
 * which leaves out a job's warm-up and the tail of its last children. A job submitted to a session cluster gets
 * fresh classes, which the JVM compiles again: in an import of 630,000 documents the compiler threads took 41 of the
 * TaskManager's 66 µs per document over the first 72,000 documents, 9 of 28 up to 186,000, 1 to 5 of 22 to 26
 * after. On a run of billions only the sustained rate is left, so it is the figure compared with the targets.
 */
public final class Progress {

    private static final double SUSTAINED_FROM = 0.5;
    private static final double SUSTAINED_TO = 0.9;

    private final long expected;
    private final List<long[]> samples = new ArrayList<>();
    private Long idleNanos;

    public Progress(long expected) {
        this.expected = expected;
    }

    /** A run that starts now with nothing done, like a baseline loop. */
    public static Progress startingNow(long expected) {
        Progress progress = new Progress(expected);
        progress.reached(System.nanoTime(), 0);
        return progress;
    }

    public long expected() {
        return expected;
    }

    /** The last count seen, 0 before any. */
    public long count() {
        return samples.isEmpty() ? 0 : last()[1];
    }

    public boolean complete() {
        return count() >= expected;
    }

    public void reached(long count) {
        reached(System.nanoTime(), count);
    }

    void reached(long nanos, long count) {
        if (samples.isEmpty() && idleNanos != null && count > 0) {
            samples.add(new long[] {idleNanos, 0});
        }
        samples.add(new long[] {nanos, count});
    }

    /**
     * A reading that saw nothing moved yet. A run without a start sample then starts at its last idle reading rather
     * than at its first document seen, so a stage whose documents all arrive between two readings still has a rate
     * (a lower bound, by at most one reading's interval).
     */
    public void idle() {
        idle(System.nanoTime());
    }

    void idle(long nanos) {
        if (samples.isEmpty()) {
            idleNanos = nanos;
        }
    }

    public long elapsedNanos() {
        return last()[0] - samples.get(0)[0];
    }

    public double rate() {
        return last()[1] / (elapsedNanos() / 1e9);
    }

    public double sustainedRate() {
        long[] from = firstAtLeast(SUSTAINED_FROM);
        long[] to = firstAtLeast(SUSTAINED_TO);
        if (to[0] == from[0]) {
            throw new IllegalStateException("too few samples between " + from[1] + " and " + to[1] + " documents");
        }
        return (to[1] - from[1]) / ((to[0] - from[0]) / 1e9);
    }

    /** When each share of the documents was reached, in seconds from the start. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        for (double share : new double[] {0.1, SUSTAINED_FROM, SUSTAINED_TO, 0.99, 1.0}) {
            text.append(String.format(Locale.ROOT, "%s%.0f%% at %.1f s", text.isEmpty() ? "" : ", ", share * 100,
                    (firstAtLeast(share)[0] - samples.get(0)[0]) / 1e9));
        }
        return text.toString();
    }

    /**
     * How long after {@code earlier} reached each percent of its documents {@code later} reached the same percent of
     * its own, in seconds (1% to 100%): the horizontal distance between the two curves, which is each document's
     * delay from one stage to the next where documents pass both in the same order (and, where they do not, the
     * delay of the n-th document out after the n-th in). Both must have the same clock.
     */
    public static List<Double> delaysSeconds(Progress earlier, Progress later) {
        List<Double> delays = new ArrayList<>();
        for (int percent = 1; percent <= 100; percent++) {
            delays.add((later.firstAtLeast(percent / 100.0)[0] - earlier.firstAtLeast(percent / 100.0)[0]) / 1e9);
        }
        return delays;
    }

    private long[] firstAtLeast(double share) {
        for (long[] sample : samples) {
            if (sample[1] >= share * expected) {
                return sample;
            }
        }
        throw new IllegalStateException("the run never reached " + share * 100 + "% of " + expected + " documents");
    }

    private long[] last() {
        return samples.get(samples.size() - 1);
    }
}
