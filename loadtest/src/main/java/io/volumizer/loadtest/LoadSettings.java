package io.volumizer.loadtest;

import java.time.Duration;
import java.time.YearMonth;

import io.volumizer.generators.GeneratorSettings;

/**
 * What a simulation runs against and how hard, from system properties {@code loadtest.*} (set by
 * {@code bin/volumizer loadtest}): the API, the identity provider its users log in at, the generator settings of
 * the repository a demo imported (so feeders compute ids and terms instead of querying), the open-model rate and
 * duration, and the thresholds of the assertions.
 */
public record LoadSettings(String apiUrl, String oidcIssuer, GeneratorSettings generator, double usersPerSecond,
        Duration ramp, Duration duration, int p95Millis, double maxErrorPercent, String label) {

    /** The run the demo imported, which the simulations' feeders compute their ids and terms from. */
    static void setGenerator(GeneratorSettings settings) {
        System.setProperty("loadtest.seed", Long.toString(settings.seed()));
        System.setProperty("loadtest.customers", Long.toString(settings.customers()));
        System.setProperty("loadtest.statements", Integer.toString(settings.statementsPerAccount()));
        System.setProperty("loadtest.meanAccounts", Double.toString(settings.meanAccountsPerCustomer()));
        System.setProperty("loadtest.lastPeriod", settings.lastPeriod().toString());
        System.setProperty("loadtest.repository", settings.repository());
    }

    /** The navigation target: p95 under 50 ms (loadtest/results/targets.md), of navigation, mixed and CRUD's reads. */
    public static final int NAVIGATION_P95_MILLIS = 50;

    public static LoadSettings fromSystemProperties(int defaultP95Millis) {
        GeneratorSettings generator = new GeneratorSettings(
                Long.getLong("loadtest.seed", GeneratorSettings.DEFAULT_SEED),
                Long.getLong("loadtest.customers", GeneratorSettings.DEFAULT_CUSTOMERS),
                Integer.getInteger("loadtest.statements", GeneratorSettings.DEFAULT_STATEMENTS_PER_ACCOUNT),
                Double.parseDouble(System.getProperty("loadtest.meanAccounts", "" + GeneratorSettings.DEFAULT_MEAN_ACCOUNTS)),
                YearMonth.parse(System.getProperty("loadtest.lastPeriod", GeneratorSettings.DEFAULT_LAST_PERIOD_TEXT)),
                System.getProperty("loadtest.repository", GeneratorSettings.DEFAULT_REPOSITORY));
        LoadSettings settings = new LoadSettings(
                System.getProperty("loadtest.api", "http://127.0.0.1:8090"),
                System.getProperty("loadtest.oidcIssuer", ""),
                generator,
                Double.parseDouble(System.getProperty("loadtest.rate", LoadShape.RATE)),
                Duration.ofSeconds(Long.parseLong(System.getProperty("loadtest.ramp", LoadShape.RAMP_SECONDS))),
                Duration.ofSeconds(Long.parseLong(System.getProperty("loadtest.duration", LoadShape.DURATION_SECONDS))),
                Integer.getInteger("loadtest.p95", defaultP95Millis),
                Double.parseDouble(System.getProperty("loadtest.maxErrorPercent", LoadShape.MAX_ERROR_PERCENT)),
                System.getProperty("loadtest.label", ""));
        if (settings.usersPerSecond <= 0) {
            throw new IllegalArgumentException("loadtest.rate must be positive, was " + settings.usersPerSecond);
        }
        if (settings.duration.isZero() || settings.duration.isNegative()) {
            throw new IllegalArgumentException("loadtest.duration must be positive seconds");
        }
        return settings;
    }

    public String documents() {
        return "/api/v1/" + generator.repository() + "/documents";
    }
}
