package io.volumizer.sinks.elasticsearch;

import java.io.Serializable;

/**
 * How the indices of repositories are named, from one prefix: one rule for the index stage, the API, the template
 * and the tools that count or reset them. A repository's name ({@link #of}) is an alias over one of its
 * generations ({@link #generation}): a reindex fills a new generation and moves the alias to it at once.
 *
 * @param prefix what every repository index of a deployment starts with, e.g. {@code volumizer-}
 */
public record IndexNames(String prefix) implements Serializable {

    public IndexNames {
        if (prefix == null || !prefix.equals(prefix.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("an index prefix must be lower case, was " + prefix);
        }
    }

    /** The name a repository's index is read and written by: an alias of its current generation. */
    public String of(String repository) {
        return prefix + repository;
    }

    /**
     * A generation of a repository's index: {@code <prefix><repository>.<generation>}. A repository name cannot hold
     * a '.', so no repository's alias or generations are another's.
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
