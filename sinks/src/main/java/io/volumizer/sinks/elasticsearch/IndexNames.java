package io.volumizer.sinks.elasticsearch;

import java.io.Serializable;

/**
 * How the indices of repositories are named, from one prefix: one rule for the index stage, the API, the template
 * and the tools that count or reset them.
 *
 * @param prefix what every repository index of a deployment starts with, e.g. {@code volumizer-}
 */
public record IndexNames(String prefix) implements Serializable {

    public IndexNames {
        if (prefix == null || !prefix.equals(prefix.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("an index prefix must be lower case, was " + prefix);
        }
    }

    /** The index of a repository. */
    public String of(String repository) {
        return prefix + repository;
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
