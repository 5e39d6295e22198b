package io.volumizer.campaigns.run;

import java.util.List;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignStep;
import io.volumizer.campaigns.file.StepSpec;
import io.volumizer.generators.GeneratorSettings;

/**
 * What a campaign's imports generate, wherever they run (the local session cluster, or the chart's generate
 * deployment): the generator's settings, the same in every import, and the customers each import adds.
 */
public final class CampaignGeneration {

    private final Campaign campaign;
    private final Sizing sizing;
    private final GeneratorSettings settings;

    /**
     * On the generator's default settings (seed, statements, accounts): a campaign's sizes are those of the documents
     * the demo and the benchmarks generate.
     */
    public CampaignGeneration(Campaign campaign) {
        this.campaign = campaign;
        GeneratorSettings defaults = GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, 1);
        this.sizing = new Sizing(defaults);
        // The generator's customer count: enough for the campaign's largest size, the same in every step's job.
        this.settings = new GeneratorSettings(defaults.seed(), sizing.customersFor(campaign.largestSize()),
                defaults.statementsPerAccount(), defaults.meanAccountsPerCustomer(), defaults.lastPeriod(),
                campaign.repository());
    }

    public GeneratorSettings settings() {
        return settings;
    }

    /** The fewest customers whose documents reach {@code size}. */
    public long customersFor(long size) {
        return sizing.customersFor(size);
    }

    /** The documents a repository holds once the import to {@code size} is done: whole customers, so a few more. */
    public long documentsAt(long size) {
        return sizing.documentsOf(sizing.customersFor(size));
    }

    /** The first customer an import generates: the one after those the imports before it generated. */
    public long fromCustomer(CampaignStep importStep) {
        long previous = 0;
        for (CampaignStep earlier : campaign.steps().subList(0, importStep.position() - 1)) {
            if (earlier.spec() instanceof StepSpec.Import imported) {
                previous = imported.to().documents();
            }
        }
        return sizing.customersFor(previous);
    }

    /** The generate job's own options for an import step: the next customers, at the step's rate. */
    public List<String> generateArguments(CampaignStep importStep) {
        StepSpec.Import spec = (StepSpec.Import) importStep.spec();
        return List.of("--repository", campaign.repository(), "--customers", Long.toString(settings.customers()),
                "--seed", Long.toString(settings.seed()),
                "--from-customer", Long.toString(fromCustomer(importStep)),
                "--to-customer", Long.toString(customersFor(spec.to().documents())),
                "--max-docs-per-second", Double.toString(spec.docsPerSecond()));
    }
}
