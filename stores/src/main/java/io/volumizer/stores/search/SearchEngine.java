package io.volumizer.stores.search;

import java.time.Duration;
import java.util.Map;

/**
 * A search engine cluster, connected to by {@link SearchEngines#open}: everything the project asks of one goes
 * through the views it hands out (indices and their writes, reads), never through requests of a caller's own, so
 * that another engine or a filter on every read is one implementation away. Thread-safe; the views share its
 * connections and are valid until {@link #close}.
 */
public interface SearchEngine extends AutoCloseable {

    /** What the engine is, for error messages: "elasticsearch", "opensearch" (or "search engine" until it is known). */
    String name();

    /**
     * The engine's version, as the cluster answers {@code GET /} ("7.10.2", "3.6.0"), asked once; "serverless" for
     * OpenSearch Serverless, and "not asked: ..." where the cluster refuses the user {@code GET /}.
     */
    String version() throws SearchException;

    /**
     * The repositories' indices of one naming.
     *
     * @param layouts each repository's layout over the template; a repository not in it has the template's
     */
    SearchIndices indices(IndexNames names, Map<String, IndexLayout> layouts);

    /** The repositories' indices of one naming, every repository laid out as the template says. */
    default SearchIndices indices(IndexNames names) {
        return indices(names, Map.of());
    }

    /** Reads of every document. */
    SearchReader reader();

    /** Returns once the cluster is up and serves every shard (at least yellow), or throws after {@code timeout}. */
    void checkHealth(Duration timeout) throws SearchException;

    /** Closes the connections. */
    @Override
    void close();
}
