package io.volumizer.loadtest.curve;

import java.time.Duration;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * How large the curve's backlog must be for no pass to run out of documents: each pass may read at most its rate
 * for as long as its users run (ramp included), a pass without a fixed limit (max, hold) at most {@code ceiling}
 * docs/s; the sum, with a margin, in the customers whose documents make it up.
 *
 * @param ceiling  docs/s the import can reach without a limit on this machine, at most
 * @param pass     a pass's seconds with users (ramp and duration)
 * @param holdPass the hold pass's seconds with users
 */
public record Backlog(double ceiling, Duration pass, Duration holdPass) {

    /** Above what the passes may read: a pass runs a little longer than its users (Gatling's start and stop). */
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
            if (rate instanceof ImportRate.Fixed fixed) {
                documents += fixed.docsPerSecond() * pass.toSeconds();
            } else {
                documents += ceiling * (rate instanceof ImportRate.Hold ? holdPass : pass).toSeconds();
            }
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
