package io.volumizer.jobs.imports;

import java.io.Serializable;

import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Options of {@link ImportJob}. */
@Command(name = "import", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Imports document events into MongoDB and publishes what was imported.")
public final class ImportOptions implements JobOptions.Validated, Serializable {

    private static final long serialVersionUID = 1L;

    @Mixin
    public PipelineOptions pipeline = new PipelineOptions();

    @Mixin
    public ImportSettings settings = new ImportSettings();

    @Override
    public void validate() {
        pipeline.validate();
        settings.validate();
    }
}
