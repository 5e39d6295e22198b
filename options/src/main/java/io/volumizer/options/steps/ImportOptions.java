package io.volumizer.options.steps;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Options of the import job. */
@Command(name = "import", description =
        "Imports document events into MongoDB and publishes what was imported.")
public final class ImportOptions extends PipelineStepOptions {

    @Mixin
    public ImportSettings settings = new ImportSettings();

    @Override
    protected void validateStep() {
        settings.validate();
    }

    public String groupId() {
        return consumerGroup(settings.groupId, Step.IMPORT);
    }

    @Override
    public String instance() {
        return groupId();
    }
}
