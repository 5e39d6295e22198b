package io.volumizer.jobs.bulk;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Updates;

import io.volumizer.domain.selection.Selection;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;

/**
 * Reads one slice of the selection from the repository's index with a scan (ids and versions only): a scan reads
 * the index as it was at one moment, so the selection holds still while documents change, and slices are read in
 * parallel. The index read is the generation the repository's alias pointed to when the first slice started,
 * recorded in the command's record ({@link CommandStore#SELECTION_INDEX}): a slice is cut by shard and then by
 * document id, so it holds the same documents in any snapshot of that generation, though a reindex moves the alias
 * meanwhile. Where the engine has points in time, every slice reads the same one: the first slice opens it and
 * records it, where the others, and the job after a restart, find it. One that is gone (its keep-alive passed while
 * the job was down, or the cluster restarted) is replaced by the first slice that finds it gone. Elsewhere each slice
 * reads a scroll of its own. A slice is read whole within one call, so a checkpoint comes before or after it: after a
 * restart, a slice that was being read is read again from its start. Each slice's size goes into the command
 * record ({@code slices.<n>}), the status's total.
 */
final class ReadSlice extends RichFlatMapFunction<Long, Selected> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ReadSlice.class);

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
        String index = selectionIndex();
        try {
            readSlice(slice, index, out);
        } catch (SearchException e) {
            if (e.kind() == SearchException.Kind.NOT_FOUND && !search.indices().exists(index)) {
                // No restart brings it back: the command fails, saying why, and its job without restarts.
                String reason = "the generation command " + commandId + " reads its selection from, " + index
                        + ", was deleted (by a reindex with --delete-old?): submit the command again to select from "
                        + "the repository as it is now";
                commands.state(commandId, CommandStore.State.FAILED, Updates.set(CommandStore.ERROR, reason));
                throw new SuppressRestartsException(new IOException(reason, e));
            }
            throw e;
        }
        rangesDone.inc();
    }

    /** Reads slice {@code slice} of {@code index}, from the command's point in time where the engine has them. */
    private void readSlice(Long slice, String index, Collector<Selected> out) throws IOException {
        String pointInTime = pointInTime(index, null);
        commands.set(commandId, Updates.set(CommandStore.SELECTION_READ, (pointInTime == null
                ? CommandStore.SelectionRead.SLICED_SCROLL : CommandStore.SelectionRead.POINT_IN_TIME).name()));
        long[] emitted = {0};
        try {
            read(index, slice.intValue(), pointInTime, out, emitted);
        } catch (SearchException gone) {
            if (pointInTime == null || gone.kind() != SearchException.Kind.NOT_FOUND) {
                throw gone;
            }
            String replacement;
            try {
                replacement = pointInTime(index, pointInTime);
            } catch (SearchException | RuntimeException opening) {
                opening.addSuppressed(gone);
                throw opening;
            }
            if (emitted[0] > 0) {
                throw new IOException("the point in time of command " + commandId + " was gone after " + emitted[0]
                        + " documents of slice " + slice + " (" + gone.reason() + "): the slice is read again from the "
                        + "last checkpoint, from a new one", gone);
            }
            LOG.info("The point in time of command {} was gone ({}): slice {} reads a new one", commandId,
                    gone.reason(), slice);
            read(index, slice.intValue(), replacement, out, emitted);
        }
    }

    /** The generation the selection is read from: the one recorded, or the alias's now, recorded. */
    private String selectionIndex() throws SearchException {
        String recorded = commands.find(commandId).map(record -> record.getString(CommandStore.SELECTION_INDEX))
                .orElse(null);
        if (recorded != null) {
            return recorded;
        }
        String current = search.indices().current(repository).orElse(search.names().of(repository));
        return commands.recordOnce(commandId, CommandStore.SELECTION_INDEX, current);
    }

    private void read(String index, int slice, String pointInTime, Collector<Selected> out, long[] emitted)
            throws IOException {
        ScanRequest request = new ScanRequest(query, slice, slices, pageSize, keepAlive, List.of(), backoff, pointInTime);
        try (SearchReader.Scan scan = search.reader().scan(index, request)) {
            commands.set(commandId, Updates.set("slices." + slice, scan.total()));
            for (List<SearchResult.Hit> page = scan.next(); !page.isEmpty(); page = scan.next()) {
                for (SearchResult.Hit hit : page) {
                    out.collect(new Selected(hit.id(), hit.version()));
                    emitted[0]++;
                }
            }
        }
    }

    /**
     * The command's point in time: the one its record holds, unless that is {@code gone}; else one opened now and
     * recorded, or the one another slice recorded first. Null where the engine has none.
     */
    private String pointInTime(String index, String gone) throws SearchException {
        String recorded = recordedPointInTime();
        if (recorded != null && !recorded.equals(gone)) {
            return recorded;
        }
        Optional<String> opened = search.reader().openPointInTime(index, keepAlive);
        if (opened.isEmpty()) {
            return null;
        }
        if (commands.replacePointInTime(commandId, recorded, opened.get())) {
            return opened.get();
        }
        search.reader().closePointInTime(opened.get());
        String recordedMeanwhile = recordedPointInTime();
        if (recordedMeanwhile == null) {
            throw new IllegalStateException("command " + commandId + " recorded no point in time, though a slice's "
                    + "was refused: its record changed while its selection was read");
        }
        return recordedMeanwhile;
    }

    private String recordedPointInTime() {
        return commands.find(commandId).map(record -> record.getString(CommandStore.POINT_IN_TIME)).orElse(null);
    }

    @Override
    public void close() {
        search.close();
        mongo.close();
    }
}
