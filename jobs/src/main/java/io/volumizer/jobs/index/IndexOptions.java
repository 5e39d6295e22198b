package io.volumizer.jobs.index;

import java.io.Serializable;

import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.options.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Options of {@link IndexJob}. */
@Command(name = "index", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Indexes imported documents into Elasticsearch.")
public final class IndexOptions implements JobOptions.Validated, Serializable {

    private static final long serialVersionUID = 1L;

    @Mixin
    public PipelineOptions pipeline = new PipelineOptions();

    @Mixin
    public IndexSettings settings = new IndexSettings();

    @Override
    public void validate() {
        pipeline.validate();
        settings.validate();
    }
}
