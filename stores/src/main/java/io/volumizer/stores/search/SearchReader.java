package io.volumizer.stores.search;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads of documents. {@code indices} are aliases, generations or patterns ({@link IndexNames} makes them); reading
 * none finds nothing and asks the engine nothing.
 */
public interface SearchReader {

    /**
     * One document by id, from a generation or an alias over one.
     *
     * @param routing the routing value it was indexed with (its layout's), or null
     */
    Optional<SearchResult.Hit> get(String index, String id, String routing) throws SearchException;

    /** A search; never partial: a shard that fails fails the search, rather than answering fewer hits. */
    SearchResult search(List<String> indices, SearchQuery query) throws SearchException;

    /** How many documents {@code query} (null: all) matches, as of the last refresh. */
    long count(List<String> indices, ObjectNode query) throws SearchException;

    /** Opens one slice of a scan of an index: see {@link ScanRequest}. */
    Scan scan(String index, ScanRequest request) throws SearchException;

    /** An open scan, read page by page; not thread-safe. Closing it releases the snapshot. */
    interface Scan extends AutoCloseable {

        /** How many documents the slice holds (exact), known from the start. */
        long total();

        /** The next page of hits, each with its id and version; an empty one at the end. */
        List<SearchResult.Hit> next() throws SearchException;

        /** Releases the snapshot; throws nothing (it expires after its keep-alive anyway). */
        @Override
        void close();
    }
}
