package io.volumizer.benchmarks.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a count of documents grew during one measured run. Two rates come out of it: the whole run's, from the first
 * document seen (or the loop's start) to the last, and the sustained rate between 10% and 90% of the documents,
 * which leaves out a job's start (fresh classes, empty caches) and the tail of its last children. On a run of
 * billions only the sustained rate is left, so it is the figure compared with the targets.
 */
final class Progress {

    private static final double SUSTAINED_FROM = 0.1;
    private static final double SUSTAINED_TO = 0.9;

    private final long expected;
    private final List<long[]> samples = new ArrayList<>();

    Progress(long expected) {
        this.expected = expected;
    }

    /** A run that starts now with nothing done, like a baseline loop. */
    static Progress startingNow(long expected) {
        Progress progress = new Progress(expected);
        progress.reached(System.nanoTime(), 0);
        return progress;
    }

    long expected() {
        return expected;
    }

    /** The last count seen, 0 before any. */
    long count() {
        return samples.isEmpty() ? 0 : last()[1];
    }

    boolean complete() {
        return count() >= expected;
    }

    void reached(long count) {
        reached(System.nanoTime(), count);
    }

    void reached(long nanos, long count) {
        samples.add(new long[] {nanos, count});
    }

    long elapsedNanos() {
        return last()[0] - samples.get(0)[0];
    }

    double rate() {
        return last()[1] / (elapsedNanos() / 1e9);
    }

    double sustainedRate() {
        long[] from = firstAtLeast(SUSTAINED_FROM);
        long[] to = firstAtLeast(SUSTAINED_TO);
        if (to[0] == from[0]) {
            throw new IllegalStateException("too few samples between " + from[1] + " and " + to[1] + " documents");
        }
        return (to[1] - from[1]) / ((to[0] - from[0]) / 1e9);
    }

    /** When each share of the documents was reached, in seconds from the start. */
    String describe() {
        StringBuilder text = new StringBuilder();
        for (double share : new double[] {SUSTAINED_FROM, 0.5, SUSTAINED_TO, 0.99, 1.0}) {
            text.append(String.format(Locale.ROOT, "%s%.0f%% at %.1f s", text.isEmpty() ? "" : ", ", share * 100,
                    (firstAtLeast(share)[0] - samples.get(0)[0]) / 1e9));
        }
        return text.toString();
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
