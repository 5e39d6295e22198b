package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.domain.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the generate job: a run's settings, the range of its customers to generate, and a rate cap. */
@Command(name = "generate", description =
        "Generates a seeded bank repository into the documents topic (exactly once).",
        footer = {"%nExample:", "  bin/volumizer job submit generate --topics-of demo --repository demo \\",
            "    --customers 120 --from-customer 100"})
public final class GenerateOptions extends PipelineStepOptions {

    @Mixin public GeneratorOptions run = new GeneratorOptions();

    @Option(names = "--from-customer", defaultValue = "0",
            description = "First customer of the range to generate; the repository root and states come with customer 0 (default: ${DEFAULT-VALUE}).")
    public long fromCustomer;

    @Option(names = "--to-customer", description = "End (exclusive) of the range to generate (default: --customers).")
    public Long toCustomer;

    @Option(names = "--max-docs-per-second", defaultValue = "0",
            description = "Cap on documents/s across all subtasks, for imports beside user traffic; 0 is uncapped (default: ${DEFAULT-VALUE}).")
    public double maxDocsPerSecond;

    private GeneratorSettings settings;

    @Override
    protected void validateStep() {
        settings = run.settings();
        long to = endCustomer();
        require(fromCustomer >= 0 && fromCustomer < to && to <= run.customers,
                "--from-customer and --to-customer must satisfy 0 <= from < to <= --customers, were " + fromCustomer + " and " + to);
        require(maxDocsPerSecond >= 0, "--max-docs-per-second must be 0 or positive, was " + maxDocsPerSecond);
    }

    /** The run's settings, once validated. */
    public GeneratorSettings settings() {
        return settings;
    }

    /** Where the run's documents go: the topology file's repositories, or else the run's --repository alone. */
    public Topology topology() {
        return pipeline.topology.orSingle(settings.repository());
    }

    /** End (exclusive) of the customer range. */
    public long endCustomer() {
        return toCustomer == null ? run.customers : toCustomer;
    }

    /**
     * The customer rate that yields about {@code maxDocsPerSecond} documents/s: a customer has 2 documents and
     * {@code meanAccounts} accounts of 2 + statements each, on average.
     */
    public double maxCustomersPerSecond() {
        return maxDocsPerSecond / docsPerCustomer();
    }

    /** Documents a customer has, on average: 2, and {@code meanAccounts} accounts of 2 + statements each. */
    public double docsPerCustomer() {
        return 2 + run.meanAccounts * (2 + run.statementsPerAccount);
    }

    @Override
    public String instance() {
        return run.repository;
    }
}
