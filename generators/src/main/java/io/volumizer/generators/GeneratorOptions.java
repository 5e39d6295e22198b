package io.volumizer.generators;

import java.time.YearMonth;

import io.volumizer.schemas.keys.RepositoryNames;
import picocli.CommandLine.Option;

/**
 * The settings of a generated run as command-line options (a picocli mixin), shared by every command that names a
 * run: {@code generate} to disk, the generate job, the demo, the load tests' feeders and the benchmarks. Each option
 * has one default, taken from {@link GeneratorSettings}; every refusal names its flag.
 */
public final class GeneratorOptions {

    @Option(names = "--seed", defaultValue = "" + GeneratorSettings.DEFAULT_SEED,
            description = "Seed of all content (default: ${DEFAULT-VALUE}).")
    public long seed;

    @Option(names = "--customers", defaultValue = "" + GeneratorSettings.DEFAULT_CUSTOMERS,
            description = "Customers in the run; about 126 documents each (default: ${DEFAULT-VALUE}).")
    public long customers;

    @Option(names = "--statements-per-account", defaultValue = "" + GeneratorSettings.DEFAULT_STATEMENTS_PER_ACCOUNT,
            description = "Monthly statements per account, 0 to " + GeneratorSettings.MAX_STATEMENTS_PER_ACCOUNT
                    + " (default: ${DEFAULT-VALUE}).")
    public int statementsPerAccount;

    @Option(names = "--mean-accounts", defaultValue = "" + GeneratorSettings.DEFAULT_MEAN_ACCOUNTS,
            description = "Mean accounts per customer, 1 to 3 (default: ${DEFAULT-VALUE}).")
    public double meanAccounts;

    @Option(names = "--last-period", defaultValue = GeneratorSettings.DEFAULT_LAST_PERIOD_TEXT,
            description = "Month of every account's last statement (default: ${DEFAULT-VALUE}).")
    public YearMonth lastPeriod;

    @Option(names = "--repository", defaultValue = GeneratorSettings.DEFAULT_REPOSITORY,
            description = "Repository the documents belong to (default: ${DEFAULT-VALUE}).")
    public String repository;

    /**
     * The run these options name.
     *
     * @throws IllegalArgumentException naming the flag at fault
     */
    public GeneratorSettings settings() {
        require(customers >= 1, "--customers must be at least 1, was " + customers);
        require(statementsPerAccount >= 0 && statementsPerAccount <= GeneratorSettings.MAX_STATEMENTS_PER_ACCOUNT,
                "--statements-per-account must be within 0.." + GeneratorSettings.MAX_STATEMENTS_PER_ACCOUNT + ", was "
                        + statementsPerAccount);
        require(meanAccounts >= 1.0 && meanAccounts <= 3.0, "--mean-accounts must be within 1..3, was " + meanAccounts);
        require(RepositoryNames.isValid(repository),
                "--repository must be " + RepositoryNames.RULE + ", was '" + repository + "'");
        return new GeneratorSettings(seed, customers, statementsPerAccount, meanAccounts, lastPeriod, repository);
    }

    /** The options that name {@code settings}' run: what {@link #settings()} reads back. */
    public static GeneratorOptions of(GeneratorSettings settings) {
        GeneratorOptions options = new GeneratorOptions();
        options.seed = settings.seed();
        options.customers = settings.customers();
        options.statementsPerAccount = settings.statementsPerAccount();
        options.meanAccounts = settings.meanAccountsPerCustomer();
        options.lastPeriod = settings.lastPeriod();
        options.repository = settings.repository();
        return options;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
