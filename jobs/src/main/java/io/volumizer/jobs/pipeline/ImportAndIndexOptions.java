package io.volumizer.jobs.pipeline;

import java.io.Serializable;

import io.volumizer.jobs.imports.ImportSettings;
import io.volumizer.jobs.index.IndexSettings;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Options of {@link ImportAndIndexJob}: the import job's and the index job's. */
@Command(name = "import-and-index", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Imports document events into MongoDB and indexes them in Elasticsearch in one job graph.")
public final class ImportAndIndexOptions implements JobOptions.Validated, Serializable {

    private static final long serialVersionUID = 1L;

    @Mixin
    public PipelineOptions pipeline = new PipelineOptions();

    @Mixin
    public ImportSettings importSettings = new ImportSettings();

    @Mixin
    public IndexSettings indexSettings = new IndexSettings();

    @Override
    public void validate() {
        pipeline.validate();
        importSettings.validate();
        indexSettings.validate();
    }
}
