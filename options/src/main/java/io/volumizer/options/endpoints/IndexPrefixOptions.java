package io.volumizer.options.endpoints;

import io.volumizer.options.Options;
import io.volumizer.stores.search.IndexNames;
import picocli.CommandLine.Option;

/**
 * How the repositories' indices are named (a picocli mixin): the prefix of their names. Where they are, and how they
 * are reached, is the search engine's connection ({@code SearchOptions}).
 */
public final class IndexPrefixOptions {

    @Option(names = "--index-prefix", defaultValue = IndexNames.DEFAULT_PREFIX, description = "Prefix of repository indices (default: ${DEFAULT-VALUE}).")
    public String prefix;

    public void validate() {
        Options.require(IndexNames.isValidPrefix(prefix),
                "--index-prefix must be " + IndexNames.PREFIX_RULE + ", was '" + prefix + "'");
    }
}
