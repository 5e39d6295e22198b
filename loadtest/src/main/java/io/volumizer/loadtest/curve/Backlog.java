package io.volumizer.loadtest.curve;

import java.time.Duration;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * How large the curve's backlog must be for no pass to run out of documents: each pass may read at most its rate
 * for as long as its users run and its runner starts and reports ({@link #PASS_OVERHEAD}), a pass without a fixed
 * limit (max, hold) at most {@code ceiling} docs/s; the sum, with a margin, in the customers whose documents make it
 * up.
 *
 * @param ceiling  docs/s the import can reach without a limit on this machine, at most
 * @param pass     a pass's seconds with users (ramp and duration)
 * @param holdPass the hold pass's seconds with users
 */
public record Backlog(double ceiling, Duration pass, Duration holdPass) {

    /**
     * What a pass lasts beyond its users: the import reads at the pass's rate while Gatling starts and writes its
     * report (passes of 70 s of users lasted 81 to 112 s here).
     */
    static final Duration PASS_OVERHEAD = Duration.ofSeconds(45);
    /** Above what the passes may read. */
    static final double MARGIN = 1.25;

    public Backlog {
        if (!(ceiling > 0) || Double.isInfinite(ceiling)) {
            throw new IllegalArgumentException("the backlog's ceiling is a positive number of docs/s; was " + ceiling);
        }
    }

    /** The documents the passes may read, the margin included. */
    public long documents(List<ImportRate> rates) {
        double documents = 0;
        for (ImportRate rate : rates) {
            double seconds = (rate instanceof ImportRate.Hold ? holdPass : pass).plus(PASS_OVERHEAD).toSeconds();
            documents += (rate instanceof ImportRate.Fixed fixed ? fixed.docsPerSecond() : ceiling) * seconds;
        }
        return (long) Math.ceil(documents * MARGIN);
    }

    /** Customers from {@code from} on whose documents ({@code documentsOf} a customer) reach {@code documents}. */
    public static long customers(long from, long documents, LongUnaryOperator documentsOf) {
        long customer = from;
        for (long sum = 0; sum < documents; customer++) {
            sum += documentsOf.applyAsLong(customer);
        }
        return Math.max(1, customer - from);
    }
}
