package io.volumizer.sinks.search;

import java.io.Serializable;
import java.util.Map;

import io.volumizer.options.pipeline.RepositoryServicesOptions;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchReader;

/**
 * The search engine as an operator reaches it: serialized with the job graph (the connection options, the indices'
 * names and layouts, never a secret: the credentials are read from the TaskManager's environment when it connects),
 * connected once per subtask on first use, closed with the subtask.
 */
public final class SearchConnection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final SearchOptions options;
    private final IndexNames names;
    private final Map<String, IndexLayout> layouts;
    private transient SearchEngine engine;

    /** @param layouts each repository's index layout; a repository not in it has the template's */
    public SearchConnection(SearchOptions options, IndexNames names, Map<String, IndexLayout> layouts) {
        this.options = options;
        this.names = names;
        this.layouts = Map.copyOf(layouts);
    }

    /** The pipeline's search engine, index names and layouts. */
    public static SearchConnection of(RepositoryServicesOptions pipeline) {
        return new SearchConnection(pipeline.search, pipeline.indices(), pipeline.indexLayouts());
    }

    public IndexNames names() {
        return names;
    }

    /** The repositories' indices, on the subtask's engine (connected on the first call). */
    public SearchIndices indices() {
        return engine().indices(names, layouts);
    }

    /** Reads, on the subtask's engine (connected on the first call). */
    public SearchReader reader() {
        return engine().reader();
    }

    private synchronized SearchEngine engine() {
        if (engine == null) {
            engine = SearchEngines.open(options);
        }
        return engine;
    }

    /** Installs the repository template with an engine of its own, closed at once: on the job client, before the job. */
    public void installTemplate() throws SearchException {
        try (SearchEngine oneOff = SearchEngines.open(options)) {
            oneOff.indices(names).installTemplate();
        }
    }

    public synchronized void close() {
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }
}
