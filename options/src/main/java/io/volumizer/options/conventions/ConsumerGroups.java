package io.volumizer.options.conventions;

import java.util.UUID;

/**
 * The Kafka consumer groups the steps read their topic in, named by one rule per repository and step:
 * {@code volumizer-<repository>-import} and {@code volumizer-<repository>-index}; without a repository
 * {@code volumizer-import} and {@code volumizer-index}. A step's group also names its runs and its checkpoint
 * folder ({@link io.volumizer.options.steps.PipelineStepOptions#instance()}).
 */
public final class ConsumerGroups {

    public static final String PREFIX = "volumizer-";
    /** The two readers of a repository's topics: the import (the documents topic) and the index (the imported one). */
    public static final String IMPORT = "import";
    public static final String INDEX = "index";
    /** The index job that reads live repositories' files' text alone ({@code --file-text only}). */
    public static final String FILE_TEXT = "file-text";

    private ConsumerGroups() {
    }

    /**
     * The group {@code reader} ({@link #IMPORT}, {@link #INDEX} or {@link #FILE_TEXT}) reads in for {@code repository} ({@code null}: none
     * named); {@link io.volumizer.options.steps.Step#consumerGroup} says which reader each step is.
     *
     * @throws IllegalArgumentException for another reader, or a repository whose name breaks the rule
     */
    public static String of(String repository, String reader) {
        if (!reader.equals(IMPORT) && !reader.equals(INDEX) && !reader.equals(FILE_TEXT)) {
            throw new IllegalArgumentException("no consumer group is named for '" + reader + "'");
        }
        return PREFIX + (repository == null ? "" : TopicNames.valid(repository) + "-") + reader;
    }

    /** A group of its own for a short-lived reader that commits no offsets (a count, say). */
    public static String ephemeral(String purpose) {
        return PREFIX + purpose + "-" + UUID.randomUUID();
    }
}
