package io.volumizer.options.steps;

import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * What the options of every pipeline step have: the pipeline's services and topics, checked with the step's own,
 * and {@code --help}; the options are listed in the order they are declared.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false)
public abstract class PipelineStepOptions implements Options.Validated {

    @Mixin
    public PipelineOptions pipeline = new PipelineOptions();

    @Override
    public final void validate() {
        pipeline.validate();
        validateStep();
    }

    /** @throws IllegalArgumentException naming the step's option that is wrong and why */
    protected abstract void validateStep();
}
