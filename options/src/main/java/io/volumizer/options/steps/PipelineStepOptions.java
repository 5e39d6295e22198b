package io.volumizer.options.steps;

import java.util.List;

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

    @Mixin public PipelineOptions pipeline = new PipelineOptions();

    @Override
    public final void validate() {
        pipeline.validate();
        validateStep();
    }

    /** @throws IllegalArgumentException naming the step's option that is wrong and why */
    protected abstract void validateStep();

    /**
     * What tells two runs of this step apart: the consumer group it reads with (so a run's checkpoints and offsets
     * go together), or the repository it generates. Part of its job's name and of its checkpoints' folder.
     */
    public abstract String instance();

    /**
     * The throttle target of its own that this step's job obeys beside its step's ({@code bin/volumizer throttle
     * <target>}): a command's id, or the text's for an index job of the files' text alone; null for none.
     */
    public String ownThrottleTarget() {
        return null;
    }

    /** The throttle targets this step's job obeys, first first: its own ({@link #ownThrottleTarget}), then its step's. */
    public final List<String> throttleTargets(Step step) {
        String own = ownThrottleTarget();
        return own == null ? List.of(step.id()) : List.of(own, step.id());
    }
}
