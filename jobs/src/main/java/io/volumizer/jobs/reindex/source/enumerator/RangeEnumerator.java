package io.volumizer.jobs.reindex.source.enumerator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;

import io.volumizer.sinks.mongodb.MongoDriverRelease;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandRanges;
import io.volumizer.jobs.reindex.source.RangeSettings;
import io.volumizer.jobs.reindex.source.split.IdRange;

/**
 * Cuts the repository's ids into ranges of about {@code rangeSize} documents, a few at a time and off the
 * enumerator's thread, and hands them to readers as they ask: reading starts with the first ranges found, and
 * finding the next boundary is one index read (the id {@code rangeSize} places further). Every range found is
 * recorded in the command's ranges, so the status counts them; a retry hands out the failed ones instead.
 */
public final class RangeEnumerator implements SplitEnumerator<IdRange, RangeSourceState> {

    private static final Logger LOG = LoggerFactory.getLogger(RangeEnumerator.class);

    /** Ranges found per call, and how many are kept ahead of the readers. */
    private static final int FOUND_PER_CALL = 16;

    private final SplitEnumeratorContext<IdRange> context;
    private final RangeSettings settings;
    private final Deque<IdRange> pending;
    private final Set<Integer> waiting = new LinkedHashSet<>();
    private String nextFrom;
    private boolean allFound;
    private int nextIndex;
    private boolean finding;
    private MongoRepositories repositories;

    public RangeEnumerator(SplitEnumeratorContext<IdRange> context, RangeSettings settings, RangeSourceState state) {
        this.context = context;
        this.settings = settings;
        this.pending = new ArrayDeque<>(state.pending());
        this.nextFrom = state.nextFrom();
        this.allFound = state.allFound();
        this.nextIndex = state.nextIndex();
    }

    /** A new enumerator's: every range still to find (for a retry: the failed ranges of the earlier run). */
    public static RangeSourceState initialState() {
        return new RangeSourceState(List.of(), null, false, 0);
    }

    @Override
    public void start() {
        repositories = new MongoRepositories(settings.databases(), MongoClients::create);
        if (!allFound) {
            findMore();
        }
    }

    @Override
    public void handleSplitRequest(int subtask, String requesterHostname) {
        waiting.add(subtask);
        assignWaiting();
    }

    @Override
    public void addSplitsBack(List<IdRange> splits, int subtask) {
        // A reader failed before a checkpoint took these ranges in: read them again, first.
        for (int i = splits.size() - 1; i >= 0; i--) {
            pending.addFirst(splits.get(i));
        }
        assignWaiting();
    }

    @Override
    public void addReader(int subtask) {
        // Readers ask for ranges (handleSplitRequest) when they start and after each one.
    }

    @Override
    public RangeSourceState snapshotState(long checkpointId) {
        return new RangeSourceState(new ArrayList<>(pending), nextFrom, allFound, nextIndex);
    }

    @Override
    public void close() {
        if (repositories != null) {
            repositories.close();
        }
        MongoDriverRelease.stopBufferPoolPruner();
    }

    private void assignWaiting() {
        for (Iterator<Integer> readers = waiting.iterator(); readers.hasNext(); ) {
            int subtask = readers.next();
            if (!context.registeredReaders().containsKey(subtask)) {
                readers.remove(); // gone; it asks again when it comes back
            } else if (!pending.isEmpty()) {
                context.assignSplit(pending.poll(), subtask);
                readers.remove();
            } else if (allFound) {
                context.signalNoMoreSplits(subtask);
                readers.remove();
            }
        }
        if (!allFound && !finding && pending.size() < Math.max(FOUND_PER_CALL, 2 * context.currentParallelism())) {
            findMore();
        }
    }

    private void findMore() {
        finding = true;
        String from = nextFrom;
        int index = nextIndex;
        context.callAsync(() -> find(from, index), (found, error) -> {
            finding = false;
            if (error != null) {
                // Backing off is done inside find(): what reaches here is a database down for good. The job
                // fails and restarts from its checkpoint, where finding resumes.
                throw new IllegalStateException("finding the id ranges of " + settings.repository() + " failed", error);
            }
            pending.addAll(found.ranges());
            nextFrom = found.nextFrom();
            nextIndex = index + found.ranges().size();
            allFound = found.allFound();
            if (allFound) {
                LOG.info("{}: all {} id ranges of {} found", settings.commandId(), nextIndex, settings.repository());
            }
            assignWaiting();
        });
    }

    /** Ranges found by one call, and where the next call starts. */
    public record Found(List<IdRange> ranges, String nextFrom, boolean allFound) {
    }

    /** Runs on the enumerator's worker thread: index reads, then the ranges recorded for the status. */
    private Found find(String from, int firstIndex) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                Found found = settings.retryFailed() ? failedRanges() : boundaries(from, firstIndex);
                new CommandRanges(repositories.shared()).found(settings.commandId(),
                        found.ranges().stream().map(range -> new CommandRanges.Range(settings.commandId(), range.index(),
                                range.from(), range.to(), CommandRanges.State.PENDING, null)).toList());
                return found;
            } catch (MongoException e) {
                if (attempt > settings.backoff().maxRetries()) {
                    throw e;
                }
                LOG.warn("{}: finding id ranges failed ({}), retry {} in {}", settings.commandId(), e.getMessage(),
                        attempt, settings.backoff().delay(attempt));
                Thread.sleep(settings.backoff().delay(attempt).toMillis());
            }
        }
    }

    private Found boundaries(String from, int firstIndex) {
        MongoCollection<Document> documents = repositories.collection(settings.repository());
        List<IdRange> ranges = new ArrayList<>();
        String lower = from;
        for (int i = 0; i < FOUND_PER_CALL; i++) {
            Document next = documents.find(new IdRange(firstIndex + i, lower, null).filterAfter(null))
                    .sort(Sorts.ascending(DocumentFields.KEY)).skip(settings.rangeSize()).limit(1)
                    .projection(Projections.include(DocumentFields.KEY)).first();
            String upper = next == null ? null : next.getString(DocumentFields.KEY);
            ranges.add(new IdRange(firstIndex + i, lower, upper));
            if (upper == null) {
                return new Found(ranges, null, true);
            }
            lower = upper;
        }
        return new Found(ranges, lower, false);
    }

    /** A retry's ranges: all the failed ones at once (their index and bounds as the first run recorded them). */
    private Found failedRanges() {
        List<IdRange> ranges = new CommandRanges(repositories.shared()).failed(settings.commandId())
                .stream().map(range -> new IdRange(range.index(), range.from(), range.to())).toList();
        return new Found(ranges, null, true);
    }
}
