package io.volumizer.options.endpoints;

import io.volumizer.options.Options;
import io.volumizer.stores.elasticsearch.IndexNames;
import picocli.CommandLine.Option;

/** Where the repositories' indices are (a picocli mixin), and the prefix of their names. */
public final class ElasticsearchOptions {

    @Option(names = "--elasticsearch-url", defaultValue = "http://127.0.0.1:9200", description = "Elasticsearch (default: ${DEFAULT-VALUE}).")
    public String url;

    @Option(names = "--index-prefix", defaultValue = IndexNames.DEFAULT_PREFIX, description = "Prefix of repository indices (default: ${DEFAULT-VALUE}).")
    public String indexPrefix;

    public void validate() {
        Options.require(IndexNames.isValidPrefix(indexPrefix),
                "--index-prefix must be " + IndexNames.PREFIX_RULE + ", was '" + indexPrefix + "'");
    }
}
