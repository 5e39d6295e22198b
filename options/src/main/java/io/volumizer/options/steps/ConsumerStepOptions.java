package io.volumizer.options.steps;

import io.volumizer.options.conventions.ConsumerGroups;

/**
 * What the steps that read a topic have: the consumer group they read it in, which tells their runs apart (a run's
 * checkpoints and offsets go together).
 */
public abstract class ConsumerStepOptions extends PipelineStepOptions {

    private final Step step;

    /** @param step the step whose group the convention names when no option does */
    protected ConsumerStepOptions(Step step) {
        this.step = step;
    }

    /** The consumer group the step's option names; null when none does. */
    protected abstract String groupIdOption();

    /** The consumer group the step reads in: the one its option names, else --topics-of's by the convention. */
    public final String groupId() {
        String option = groupIdOption();
        return option != null ? option : step.consumerGroup(pipeline.documents.repository());
    }

    @Override
    public final String instance() {
        return groupId();
    }
}
