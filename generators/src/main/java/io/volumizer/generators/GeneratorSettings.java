package io.volumizer.generators;

import java.io.Serializable;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.YearMonth;

import io.volumizer.schemas.keys.RepositoryNames;

/**
 * What determines a run's content. Two runs with equal settings produce identical documents and blobs, byte for
 * byte, on any machine and however the index range is split.
 *
 * @param seed                       the seed of all content
 * @param customers                  customers in the run (the index space grows with it)
 * @param statementsPerAccount       monthly statements per account
 * @param meanAccountsPerCustomer    between 1 and 3: each customer has 1 to 3 accounts with this mean
 * @param lastPeriod                 the month of every account's last statement
 * @param repository                 the repository the documents belong to
 */
public record GeneratorSettings(long seed, long customers, int statementsPerAccount, double meanAccountsPerCustomer,
        YearMonth lastPeriod, String repository) implements Serializable {

    public static final long DEFAULT_SEED = 1;
    /** About 63,000 documents: a run that goes end to end in about a minute on two cores. */
    public static final long DEFAULT_CUSTOMERS = 500;
    public static final int DEFAULT_STATEMENTS_PER_ACCOUNT = 60;
    public static final int MAX_STATEMENTS_PER_ACCOUNT = 1200;
    public static final double DEFAULT_MEAN_ACCOUNTS = 2.0;
    public static final String DEFAULT_LAST_PERIOD_TEXT = "2025-12";
    public static final YearMonth DEFAULT_LAST_PERIOD = YearMonth.parse(DEFAULT_LAST_PERIOD_TEXT);
    public static final String DEFAULT_REPOSITORY = "bank";
    /**
     * A statement this many months old or older (measured as a topology's {@code minAge}: from its creation, the
     * first day after its period, to the run's {@link #present()}) is in the archive; topologies/11b.yaml routes the
     * same statements to its archive repository.
     */
    public static final int ARCHIVE_AGE_MONTHS = 6;

    public GeneratorSettings {
        if (customers < 0) {
            throw new IllegalArgumentException("customers must not be negative, was " + customers);
        }
        if (statementsPerAccount < 0 || statementsPerAccount > MAX_STATEMENTS_PER_ACCOUNT) {
            throw new IllegalArgumentException("statements per account must be within 0.." + MAX_STATEMENTS_PER_ACCOUNT
                    + ", was " + statementsPerAccount);
        }
        if (!(meanAccountsPerCustomer >= 1.0 && meanAccountsPerCustomer <= 3.0)) {
            throw new IllegalArgumentException("mean accounts per customer must be within 1..3, was " + meanAccountsPerCustomer);
        }
        if (lastPeriod == null) {
            throw new IllegalArgumentException("the last period must be given");
        }
        if (!RepositoryNames.isValid(repository)) {
            throw new IllegalArgumentException("repository must be " + RepositoryNames.RULE + ", was " + repository);
        }
    }

    /** Settings with the defaults of everything but the seed and the number of customers. */
    public static GeneratorSettings of(long seed, long customers) {
        return new GeneratorSettings(seed, customers, DEFAULT_STATEMENTS_PER_ACCOUNT, DEFAULT_MEAN_ACCOUNTS,
                DEFAULT_LAST_PERIOD, DEFAULT_REPOSITORY);
    }

    public GeneratorSettings withStatementsPerAccount(int statements) {
        return new GeneratorSettings(seed, customers, statements, meanAccountsPerCustomer, lastPeriod, repository);
    }

    public YearMonth firstPeriod() {
        return lastPeriod.minusMonths(Math.max(0, statementsPerAccount - 1));
    }

    /**
     * The run's present, which documents' ages are measured from: the day its last statements are issued (the first
     * of the month after the last period), so a run routes the same whenever it is generated.
     */
    public Instant present() {
        return lastPeriod.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    /** Whether the statement of {@code period} is in the archive: {@link #ARCHIVE_AGE_MONTHS} or more before the last. */
    public boolean archived(YearMonth period) {
        return !period.isAfter(lastPeriod.minusMonths(ARCHIVE_AGE_MONTHS));
    }
}
