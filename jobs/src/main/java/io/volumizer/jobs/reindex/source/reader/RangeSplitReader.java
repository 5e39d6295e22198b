package io.volumizer.jobs.reindex.source.reader;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.Sorts;

import io.volumizer.sinks.mongodb.MongoDriverRelease;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandRanges;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.jobs.reindex.source.RangeSettings;
import io.volumizer.jobs.reindex.source.split.IdRange;

/**
 * Reads its ranges one after the other, each with one cursor sorted by id, a batch per fetch, on the fetcher's
 * thread (so documents are decoded beside the task's thread, not on it), with the files' texts stored for them (one
 * read of the repository's texts per batch). Deleted documents (tombstones) are passed over: the new index starts
 * empty. A lost connection is retried with backoff from the last id read; a database still unreachable after that
 * fails the job, which resumes from its checkpoint. A range whose documents cannot be read (a stored document the
 * reindex cannot turn into an event) is recorded as failed, with why, and the reader goes on with the next: a retry
 * reads only those again.
 */
public final class RangeSplitReader implements SplitReader<ImportedEvent, IdRange> {

    private static final Logger LOG = LoggerFactory.getLogger(RangeSplitReader.class);

    private final RangeSettings settings;
    private final RangeCounts counts;
    private final Deque<IdRange> ranges = new ArrayDeque<>();
    private MongoRepositories repositories;
    private MongoCollection<Document> documents;
    private MongoCollection<Document> fileTexts;
    private CommandRanges ledger;
    private IdRange current;
    private MongoCursor<Document> cursor;
    private String lastRead;
    private long readInRange;
    private int failedAttempts;
    /** This reader's share of --max-docs-per-second (0: no limit), and what it read since it started. */
    private final double maxDocsPerSecond;
    private long startedNanos;
    private long readSinceStart;

    public RangeSplitReader(RangeSettings settings, double maxDocsPerSecond, RangeCounts counts) {
        this.settings = settings;
        this.maxDocsPerSecond = maxDocsPerSecond;
        this.counts = counts;
    }

    @Override
    public RecordsWithSplitIds<ImportedEvent> fetch() throws IOException {
        throttle();
        RecordsBySplits.Builder<ImportedEvent> batch = new RecordsBySplits.Builder<>();
        if (current == null && !startNext()) {
            return batch.build();
        }
        String split = current.splitId();
        if (current.index() == settings.failRange() && !settings.retryFailed()) {
            finish(batch, "injected failure of range " + current.index() + " (--fail-range)");
            return batch.build();
        }
        try {
            if (cursor == null) {
                cursor = documents.find(current.filterAfter(lastRead)).sort(Sorts.ascending(DocumentFields.KEY))
                        .batchSize(settings.batchSize()).iterator();
            }
            List<Document> page = new ArrayList<>(settings.batchSize());
            while (page.size() < settings.batchSize() && cursor.hasNext()) {
                page.add(cursor.next());
            }
            Map<String, String> texts = MongoDocumentStore.fileTexts(fileTexts, page);
            for (Document stored : page) {
                String id = stored.getString(DocumentFields.KEY);
                if (!MongoDocumentStore.isTombstone(stored)) {
                    ImportedEvent event;
                    try {
                        event = MongoDocumentStore.toImported(stored, texts.get(id));
                    } catch (RuntimeException e) {
                        finish(batch, "document " + id + " cannot be read: " + e);
                        return batch.build();
                    }
                    batch.add(split, event);
                    readInRange++;
                }
                lastRead = id;
                readSinceStart++;
            }
            failedAttempts = 0;
            if (page.size() < settings.batchSize()) {
                finish(batch, null);
            }
        } catch (MongoException e) {
            closeCursor();
            if (++failedAttempts > settings.backoff().maxRetries()) {
                throw new IOException("reading " + current + " of " + settings.repository() + " failed "
                        + failedAttempts + " times; the job restarts from its checkpoint", e);
            }
            LOG.warn("{}: reading {} failed ({}); retry {} from after id {}", settings.commandId(), current,
                    e.getMessage(), failedAttempts, lastRead);
            settings.backoff().sleep(failedAttempts);
        }
        return batch.build();
    }

    /** Waits until what this reader read is within its rate. */
    private void throttle() throws IOException {
        if (maxDocsPerSecond <= 0) {
            return;
        }
        if (startedNanos == 0) {
            startedNanos = System.nanoTime();
        }
        long due = startedNanos + (long) (readSinceStart * 1e9 / maxDocsPerSecond);
        long wait = due - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while throttled", e);
            }
        }
    }

    private boolean startNext() {
        current = ranges.poll();
        if (current == null) {
            return false;
        }
        lastRead = current.after();
        readInRange = current.read();
        return true;
    }

    /** Ends the current range: recorded as read through, or as failed with why. */
    private void finish(RecordsBySplits.Builder<ImportedEvent> batch, String failure) {
        closeCursor();
        if (failure == null) {
            ledger.done(settings.commandId(), current.index(), current.from(), current.to(), readInRange);
            counts.done().inc();
        } else {
            LOG.warn("{}: {} failed: {}", settings.commandId(), current, failure);
            ledger.failed(settings.commandId(), current.index(), current.from(), current.to(), failure);
            counts.failed().inc();
        }
        batch.addFinishedSplit(current.splitId());
        current = null;
    }

    @Override
    public void handleSplitsChanges(SplitsChange<IdRange> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException("unexpected split change " + change.getClass().getSimpleName());
        }
        if (repositories == null) {
            repositories = new MongoRepositories(settings.databases(), MongoClients::create);
            documents = repositories.collection(settings.repository());
            fileTexts = repositories.fileTexts(settings.repository());
            ledger = new CommandRanges(repositories.shared());
        }
        ranges.addAll(change.splits());
    }

    @Override
    public void wakeUp() {
        // fetch() never waits for more than one cursor batch: nothing to interrupt.
    }

    @Override
    public void close() {
        closeCursor();
        if (repositories != null) {
            repositories.close();
        }
        MongoDriverRelease.stopBufferPoolPruner();
    }

    private void closeCursor() {
        if (cursor != null) {
            try {
                cursor.close();
            } catch (MongoException e) {
                LOG.debug("closing a cursor: {}", e.getMessage());
            }
            cursor = null;
        }
    }
}
