package io.volumizer.jobs.bulk;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Updates;

import io.volumizer.domain.selection.Selection;
import io.volumizer.jobs.internal.StageMetrics;
import io.volumizer.jobs.internal.stores.MongoConnection;
import io.volumizer.jobs.internal.stores.SearchConnection;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;

/**
 * Reads one slice of the selection from the repository's index with a scan (ids and versions only): a scan reads
 * the index as it was when it opened, so the selection holds still while documents change, and slices are
 * read in parallel. A slice is read whole within one call, so a checkpoint comes before or after it: after a
 * restart, a slice that was being read is read again from its start. Each slice's size goes into the command
 * record ({@code slices.<n>}), the status's total.
 */
final class ReadSlice extends RichFlatMapFunction<Long, Selected> {

    private static final long serialVersionUID = 1L;

    private final SearchConnection search;
    private final String repository;
    private final LinkedHashMap<String, String> filters;
    private final int slices;
    private final int pageSize;
    private final Duration keepAlive;
    private final MongoConnection mongo;
    private final String commandId;
    private final Backoff backoff;
    private transient CommandStore commands;
    /** The selection's query, the same for every slice. */
    private transient ObjectNode query;
    private transient Counter rangesDone;

    ReadSlice(SearchConnection search, String repository, Map<String, String> filters, int slices, int pageSize,
            Duration keepAlive, MongoConnection mongo, String commandId, Backoff backoff) {
        this.search = search;
        this.repository = repository;
        this.filters = new LinkedHashMap<>(filters);
        this.slices = slices;
        this.pageSize = pageSize;
        this.keepAlive = keepAlive;
        this.mongo = mongo;
        this.commandId = commandId;
        this.backoff = backoff;
    }

    @Override
    public void open(OpenContext context) {
        commands = new CommandStore(mongo.openShared(getRuntimeContext()));
        query = Selection.parse(filters).query();
        // A slice is the bulk's range; it has no failed state of its own (a failure fails the job, which reads it again).
        rangesDone = StageMetrics.of(getRuntimeContext().getMetricGroup(), MetricNames.BULK).counter(MetricNames.RANGES_DONE);
    }

    @Override
    public void flatMap(Long slice, Collector<Selected> out) throws IOException {
        ScanRequest request = new ScanRequest(query, slice.intValue(), slices, pageSize,
                keepAlive, List.of(), backoff);
        try (SearchReader.Scan scan = search.reader().scan(search.names().of(repository), request)) {
            commands.set(commandId, Updates.set("slices." + slice, scan.total()));
            for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                for (SearchResult.Hit hit : page) {
                    out.collect(new Selected(hit.id(), hit.version()));
                }
            }
            rangesDone.inc();
        }
    }

    @Override
    public void close() {
        search.close();
        mongo.close();
    }
}
