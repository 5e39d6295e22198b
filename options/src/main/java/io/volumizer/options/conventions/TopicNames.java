package io.volumizer.options.conventions;

import java.util.List;

import io.volumizer.schemas.keys.RepositoryNames;

/**
 * The Kafka topics of a repository, named by one rule for the jobs, the API, the tools, {@code bin/volumizer} and
 * the chart (which pass only {@code --topics-of <repository>}): {@code volumizer.<repository>.documents},
 * {@code .imported}, {@code .deadletter} and {@code .control}. Without a repository they are {@link #DEFAULT}, the
 * options' defaults.
 *
 * @param documents  document events, keyed by parent id: what every writer appends to
 * @param imported   imported documents, keyed by id: what the import publishes for the index
 * @param deadletter what a stage could not process
 * @param control    the throttles of the repository's steps and commands, keyed by target, compacted
 */
public record TopicNames(String documents, String imported, String deadletter, String control) {

    public static final String PREFIX = "volumizer.";

    /** The topics when no repository is named: {@code volumizer.documents}, {@code .imported}, {@code .deadletter}... */
    public static final TopicNames DEFAULT = under(PREFIX);

    /** The smoke job's topic of running counts (no repository's). */
    public static final String SMOKE = "volumizer-smoke";

    /**
     * A repository's topics; {@code null} names none: {@link #DEFAULT}.
     *
     * @throws IllegalArgumentException if the repository's name breaks {@link RepositoryNames#RULE}
     */
    public static TopicNames of(String repository) {
        return repository == null ? DEFAULT : under(PREFIX + valid(repository) + ".");
    }

    /** {@code repository}, if its name keeps the rule: it becomes part of topic and group names. */
    static String valid(String repository) {
        if (!RepositoryNames.isValid(repository)) {
            throw new IllegalArgumentException("a repository must be " + RepositoryNames.RULE + ", was '" + repository + "'");
        }
        return repository;
    }

    private static TopicNames under(String prefix) {
        return new TopicNames(prefix + "documents", prefix + "imported", prefix + "deadletter", prefix + "control");
    }

    public List<String> all() {
        return List.of(documents, imported, deadletter, control);
    }
}
