package io.volumizer.stores.search;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.Backoff;

/**
 * One slice of a scan: the documents a query selects, read page by page from a snapshot that holds still while they
 * change, as bulk commands and audits read them. Slices of the same query are read in parallel; they are cut by
 * shard, then by document id, so a slice holds the same documents in any snapshot of the same concrete index (not
 * of an alias that moved to one with another number of shards).
 *
 * @param query     the query, or null for every document
 * @param slice     which slice, from 0
 * @param slices    how many slices the selection is cut into (1: the whole of it)
 * @param pageSize  hits per page
 * @param keepAlive how long the snapshot is kept between two pages
 * @param fields    the source fields each hit carries besides its id and version (empty: none)
 * @param retry     how a page is asked again while the cluster cannot be reached (connection refused or closed),
 *                  or null to fail at once
 * @param pointInTime the snapshot every slice reads ({@link SearchReader#openPointInTime}), or null: each
 *                  slice reads a scroll of its own, opened with its first page
 */
public record ScanRequest(ObjectNode query, int slice, int slices, int pageSize, Duration keepAlive,
        List<String> fields, Backoff retry, String pointInTime) {

    public ScanRequest {
        if (slices < 1 || slice < 0 || slice >= slices || pageSize < 1) {
            throw new IllegalArgumentException("a scan reads slice 0.." + (slices - 1) + " in pages of at least one, was "
                    + slice + " of " + slices + " in pages of " + pageSize);
        }
        fields = List.copyOf(fields);
    }
}
