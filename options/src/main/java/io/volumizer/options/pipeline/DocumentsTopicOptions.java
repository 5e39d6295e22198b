package io.volumizer.options.pipeline;

import io.volumizer.options.Options;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.schemas.keys.RepositoryNames;
import picocli.CommandLine.Option;

/**
 * Which repository's topics (a picocli mixin of the jobs and the API): {@code --topics-of} names them all by
 * {@link TopicNames}' rule, and the consumer groups by {@link io.volumizer.options.conventions.ConsumerGroups}';
 * an option naming a topic or a group itself wins. The documents topic is the one every writer appends to.
 */
public final class DocumentsTopicOptions {

    @Option(names = "--topics-of", paramLabel = "REPOSITORY", description = "The repository whose topics (volumizer."
            + "<repository>.documents, .imported, .deadletter) and consumer groups (volumizer-<repository>-import, "
            + "-index) these are (default: none, volumizer.documents... and volumizer-import...).")
    private String repository;

    @Option(names = "--documents-topic", description = "Document events, keyed by parent id (default: --topics-of's).")
    private String topic;

    /** The repository whose topics and groups these are; {@code null}: none named. */
    public String repository() {
        return repository;
    }

    /** Names the repository whose topics these are, for a tool that learns it after parsing its line. */
    public void topicsOf(String repository) {
        this.repository = repository;
    }

    /** The topics {@code --topics-of} names. */
    public TopicNames topics() {
        return TopicNames.of(repository);
    }

    public String topic() {
        return topic != null ? topic : topics().documents();
    }

    public void validate() {
        Options.require(repository == null || RepositoryNames.isValid(repository),
                "--topics-of must be " + RepositoryNames.RULE + ", was '" + repository + "'");
    }
}
