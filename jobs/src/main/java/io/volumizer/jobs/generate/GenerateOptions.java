package io.volumizer.jobs.generate;

import static io.volumizer.jobs.options.JobOptions.require;

import java.io.Serializable;
import java.time.YearMonth;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of {@link GenerateJob}. */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Generates a seeded bank repository into the documents topic (exactly once).")
public final class GenerateOptions implements JobOptions.Validated, Serializable {

    private static final long serialVersionUID = 1L;

    @Mixin
    public PipelineOptions pipeline = new PipelineOptions();

    @Option(names = "--seed", defaultValue = "1", description = "Seed of all content (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--customers", defaultValue = "1000", description = "Customers to generate (default: ${DEFAULT-VALUE}).")
    long customers;

    @Option(names = "--from-customer", defaultValue = "0",
            description = "First customer of the range to generate; the repository root and states come with customer 0 (default: ${DEFAULT-VALUE}).")
    long fromCustomer;

    @Option(names = "--to-customer", description = "End (exclusive) of the range to generate (default: --customers).")
    Long toCustomer;

    @Option(names = "--statements-per-account", defaultValue = "60", description = "Monthly statements per account (default: ${DEFAULT-VALUE}).")
    int statementsPerAccount;

    @Option(names = "--mean-accounts", defaultValue = "2.0", description = "Mean accounts per customer, 1 to 3 (default: ${DEFAULT-VALUE}).")
    double meanAccounts;

    @Option(names = "--last-period", defaultValue = "2025-12", description = "Month of the last statement (default: ${DEFAULT-VALUE}).")
    YearMonth lastPeriod;

    @Option(names = "--repository", defaultValue = "bank", description = "Repository name (default: ${DEFAULT-VALUE}).")
    String repository;

    @Option(names = "--max-docs-per-second", defaultValue = "0",
            description = "Cap on documents/s across all subtasks, for imports beside user traffic; 0 is uncapped (default: ${DEFAULT-VALUE}).")
    double maxDocsPerSecond;

    private GeneratorSettings settings;

    @Override
    public void validate() {
        pipeline.validate();
        require(customers >= 1, "--customers must be at least 1, was " + customers);
        long to = toCustomer == null ? customers : toCustomer;
        require(fromCustomer >= 0 && fromCustomer < to && to <= customers,
                "--from-customer and --to-customer must satisfy 0 <= from < to <= --customers, were " + fromCustomer + " and " + to);
        require(maxDocsPerSecond >= 0, "--max-docs-per-second must be 0 or positive, was " + maxDocsPerSecond);
        settings = new GeneratorSettings(seed, customers, statementsPerAccount, meanAccounts, lastPeriod, repository);
    }

    public GeneratorSettings settings() {
        return settings;
    }

    /** First generator index of the customer range (0 includes the root and the states). */
    public long fromIndex() {
        return fromCustomer == 0 ? 0 : new BankGenerator(settings).firstIndexOf(fromCustomer);
    }

    /** End (exclusive) generator index of the customer range. */
    public long toIndex() {
        BankGenerator generator = new BankGenerator(settings);
        return toCustomer == null || toCustomer == customers ? generator.indexSpace() : generator.firstIndexOf(toCustomer);
    }

    /**
     * The generator's index rate that yields about {@code maxDocsPerSecond} documents/s: a customer's slot holds
     * room for 3 accounts, of which it has {@code meanAccounts} on average.
     */
    public double maxIndicesPerSecond() {
        double slot = 2 + 3 * (2 + statementsPerAccount);
        double documents = 2 + meanAccounts * (2 + statementsPerAccount);
        return maxDocsPerSecond * slot / documents;
    }
}
