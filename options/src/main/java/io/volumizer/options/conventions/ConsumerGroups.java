package io.volumizer.options.conventions;

import java.util.UUID;

import io.volumizer.options.steps.Step;

/**
 * The Kafka consumer groups the steps read their topic in, named by one rule per repository and step:
 * {@code volumizer-<repository>-import} and {@code volumizer-<repository>-index}; without a repository
 * {@code volumizer-import} and {@code volumizer-index}. A step's group also names its runs and its checkpoint
 * folder ({@link io.volumizer.options.steps.PipelineStepOptions#instance()}).
 */
public final class ConsumerGroups {

    public static final String PREFIX = "volumizer-";

    private ConsumerGroups() {
    }

    /**
     * The group {@code step} reads in for {@code repository} ({@code null}: none named). Import and import-and-index
     * share one: both read the documents topic, and either continues where the other stopped.
     *
     * @throws IllegalArgumentException for a step that reads no topic in a group, or a repository whose name breaks
     *                                  the rule
     */
    public static String of(String repository, Step step) {
        String reader = switch (step) {
            case IMPORT, IMPORT_AND_INDEX -> "import";
            case INDEX -> "index";
            default -> throw new IllegalArgumentException(step.id() + " reads no topic in a consumer group");
        };
        return PREFIX + (repository == null ? "" : TopicNames.valid(repository) + "-") + reader;
    }

    /** A group of its own for a short-lived reader that commits no offsets (a count, say). */
    public static String ephemeral(String purpose) {
        return PREFIX + purpose + "-" + UUID.randomUUID();
    }
}
