package io.volumizer.stores.search;

import java.io.Serializable;
import java.util.Map;

/**
 * How the indices of repositories are named, from one prefix: one rule for the index stage, the API, the template
 * and the tools that count or reset them. A repository's index ({@link #of}) is an alias over one of its
 * generations ({@link #generation}): a reindex fills a new generation and moves the alias to it at once.
 *
 * @param prefix  what every repository index of a deployment starts with, e.g. {@code volumizer-}
 * @param aliases the repositories whose alias has a name of its own (a topology's {@code index.alias}), still under
 *                the prefix; every other repository's alias is its name
 */
public record IndexNames(String prefix, Map<String, String> aliases) implements Serializable {

    /** The prefix of a deployment that names none ({@code --index-prefix}'s default, the chart's indexPrefix). */
    public static final String DEFAULT_PREFIX = "volumizer-";
    /**
     * What a prefix may be (the chart's values.schema.json holds the same pattern, anchored): what can start an
     * Elasticsearch index name, and no '.', which separates an alias from its generation.
     */
    public static final String PREFIX_PATTERN = "[a-z0-9][a-z0-9_-]*";
    public static final String PREFIX_RULE = "lower-case letters, digits, '-' or '_', starting with a letter or digit";

    public IndexNames {
        if (!isValidPrefix(prefix)) {
            throw new IllegalArgumentException("an index prefix must be " + PREFIX_RULE + ", was '" + prefix + "'");
        }
        aliases = Map.copyOf(aliases);
    }

    public static boolean isValidPrefix(String prefix) {
        return prefix != null && prefix.matches(PREFIX_PATTERN);
    }

    /** Every repository's alias is its name under the prefix. */
    public IndexNames(String prefix) {
        this(prefix, Map.of());
    }

    /** The name a repository's index is read and written by: an alias of its current generation. */
    public String of(String repository) {
        return prefix + aliases.getOrDefault(repository, repository);
    }

    /** The repository whose alias this is ({@link #of} read back). */
    public String repositoryOf(String alias) {
        String name = alias.substring(prefix.length());
        return aliases.entrySet().stream().filter(entry -> entry.getValue().equals(name)).map(Map.Entry::getKey)
                .findFirst().orElse(name);
    }

    /**
     * A generation of a repository's index: {@code <alias>.<generation>}. Neither a repository name nor an alias
     * holds a '.', so no repository's alias or generations are another's.
     */
    public String generation(String repository, String generation) {
        return of(repository) + "." + generation;
    }

    /** A pattern of every generation of a repository's index. */
    public String generations(String repository) {
        return generation(repository, "*");
    }

    /** A pattern of every repository index. */
    public String all() {
        return prefix + "*";
    }

    /** The name of the index template every repository index is created from. */
    public String template() {
        return prefix + "repositories";
    }
}
