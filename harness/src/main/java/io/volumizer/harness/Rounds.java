package io.volumizer.harness;

import java.util.List;
import java.util.Locale;

/**
 * Rounds of measures, each pair of a job and its baseline one after the other on a quiet machine ({@link
 * QuietMachine}): odd rounds run the baseline first, even rounds the job, so that neither always inherits what the
 * other left behind (page cache, a grown data file, an index to merge).
 */
public final class Rounds {

    /** A measure of a round: it records its figures. */
    public interface Measure {
        void run() throws Exception;
    }

    /** The body of a round, given its number (from 1). */
    public interface Round {
        void run(int round) throws Exception;
    }

    private final QuietMachine quiet = QuietMachine.forMeasures();

    /** Runs {@code rounds} rounds, each announced. */
    public static void run(int rounds, Round body) throws Exception {
        for (int round = 1; round <= rounds; round++) {
            System.out.printf(Locale.ROOT, "round %d of %d%n", round, rounds);
            body.run(round);
        }
    }

    /** Awaits a quiet machine before a measure. */
    public void settle() throws Exception {
        quiet.settle();
    }

    /** The baseline and the job of a round, in that round's order, each on a quiet machine. */
    public void pair(int round, Measure baseline, Measure job) throws Exception {
        for (Measure measure : round % 2 == 1 ? List.of(baseline, job) : List.of(job, baseline)) {
            quiet.settle();
            measure.run();
        }
    }
}
