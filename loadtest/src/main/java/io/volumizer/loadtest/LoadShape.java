package io.volumizer.loadtest;

import picocli.CommandLine.Option;

/**
 * How hard a simulation runs (a mixin of the runner): the open model's rate, ramp and duration and the assertions'
 * thresholds, handed to the simulation as {@code loadtest.*} system properties, whose defaults are these.
 */
public final class LoadShape {

    static final String RATE = "10";
    static final String DURATION_SECONDS = "60";
    static final String RAMP_SECONDS = "10";
    static final String MAX_ERROR_PERCENT = "1.0";

    @Option(names = "--rate", defaultValue = RATE, description = "Users arriving per second once ramped (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--duration", defaultValue = DURATION_SECONDS, description = "Seconds at the full rate (default: ${DEFAULT-VALUE}).")
    long duration;

    @Option(names = "--ramp", defaultValue = RAMP_SECONDS, description = "Seconds to ramp up to the rate (default: ${DEFAULT-VALUE}).")
    long ramp;

    @Option(names = "--p95", description = "Threshold of the 95th percentile assertion, ms (default: the simulation's target).")
    Integer p95;

    @Option(names = "--max-error-percent", defaultValue = MAX_ERROR_PERCENT, description = "Failed requests allowed, %% (default: ${DEFAULT-VALUE}).")
    double maxErrorPercent;

    /** @throws IllegalArgumentException naming the option out of range */
    void validate() {
        if (rate <= 0 || duration <= 0 || ramp < 0) {
            throw new IllegalArgumentException("--rate and --duration must be positive, --ramp not negative");
        }
    }

    /** Hands the shape to the simulation ({@link LoadSettings#fromSystemProperties}). */
    void publish() {
        System.setProperty("loadtest.rate", Double.toString(rate));
        System.setProperty("loadtest.duration", Long.toString(duration));
        System.setProperty("loadtest.ramp", Long.toString(ramp));
        System.setProperty("loadtest.maxErrorPercent", Double.toString(maxErrorPercent));
        if (p95 != null) {
            System.setProperty("loadtest.p95", Integer.toString(p95));
        }
    }
}
