package io.volumizer.options.endpoints;

import io.volumizer.options.Options;
import picocli.CommandLine.Option;

/** Where the repositories' indices are (a picocli mixin), and the prefix of their names. */
public final class ElasticsearchOptions {

    @Option(names = "--elasticsearch-url", defaultValue = "http://127.0.0.1:9200", description = "Elasticsearch (default: ${DEFAULT-VALUE}).")
    public String url;

    @Option(names = "--index-prefix", defaultValue = "volumizer-", description = "Prefix of repository indices (default: ${DEFAULT-VALUE}).")
    public String indexPrefix;

    public void validate() {
        Options.require(indexPrefix.equals(indexPrefix.toLowerCase(java.util.Locale.ROOT)),
                "--index-prefix must be lower case, was " + indexPrefix);
    }
}
