package io.volumizer.stores.search;

import java.time.Duration;
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

    /**
     * Opens one slice of a scan of an index, or of the point in time the request names (then {@code index} is not
     * asked: the point in time holds its indices): see {@link ScanRequest}. A point in time that is gone (expired, or its cluster
     * restarted) fails the scan's first page or a later one with {@link SearchException.Kind#NOT_FOUND}.
     */
    Scan scan(String index, ScanRequest request) throws SearchException;

    /**
     * Opens a point in time over an index: one snapshot that every slice of a scan reads, kept for {@code keepAlive}
     * after each page. Empty where the engine has none: OpenSearch has it from 2.4; Elasticsearch's is not in the OSS
     * distribution, and slicing one needs 7.15, so on Elasticsearch each slice reads a scroll of its own.
     */
    Optional<String> openPointInTime(String index, Duration keepAlive) throws SearchException;

    /** Releases a point in time; throws nothing (it expires after its keep-alive anyway). */
    void closePointInTime(String pointInTime);

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
