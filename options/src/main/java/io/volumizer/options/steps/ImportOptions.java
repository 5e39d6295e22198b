package io.volumizer.options.steps;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Options of the import job. */
@Command(name = "import", description =
        "Imports document events into MongoDB and publishes what was imported.",
        footer = {"%nExample:", "  bin/volumizer job submit import --topics-of bank"})
public final class ImportOptions extends ConsumerStepOptions {

    @Mixin public ImportSettings settings = new ImportSettings();

    public ImportOptions() {
        super(Step.IMPORT);
    }

    @Override
    protected void validateStep() {
        settings.validate();
    }

    @Override
    protected String groupIdOption() {
        return settings.groupId;
    }
}
