package io.volumizer.jobs.generate;

import static io.volumizer.jobs.options.JobOptions.require;

import java.io.Serializable;
import java.time.YearMonth;

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
        require(maxDocsPerSecond >= 0, "--max-docs-per-second must be 0 or positive, was " + maxDocsPerSecond);
        settings = new GeneratorSettings(seed, customers, statementsPerAccount, meanAccounts, lastPeriod, repository);
    }

    public GeneratorSettings settings() {
        return settings;
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
