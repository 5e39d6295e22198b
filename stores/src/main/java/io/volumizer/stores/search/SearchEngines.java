package io.volumizer.stores.search;

import io.volumizer.stores.search.elasticsearch.Elasticsearch7Engine;

/** Where a {@link SearchEngine} is made: the one place that knows the implementations. */
public final class SearchEngines {

    private SearchEngines() {
    }

    /** Connects to the engine of {@code options}; the caller closes it. */
    public static SearchEngine open(SearchOptions options) {
        return open(options, SearchTuning.DEFAULT);
    }

    /**
     * Connects to the engine of {@code options} with the credentials of this process's environment; the caller
     * closes it.
     *
     * @throws IllegalArgumentException when the options or the credentials are wrong
     */
    public static SearchEngine open(SearchOptions options, SearchTuning tuning) {
        options.validate();
        // One implementation speaks to both engines; it checks which one the cluster is (Elasticsearch7Engine).
        return Elasticsearch7Engine.connect(options, options.credentials(), tuning);
    }
}
