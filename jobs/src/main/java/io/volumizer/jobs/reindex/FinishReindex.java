package io.volumizer.jobs.reindex;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;

import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.bulk.BulkWriter;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.sinks.search.SearchSinkBuilder;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandRanges;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.jobs.reindex.source.RangeSettings;
import io.volumizer.options.conventions.MetricNames;

/**
 * The end of a reindex, in one subtask, once every range was read and written: the dead letters of the writers
 * pass through it (counted into the command's errors), and when they end, so has the writing. Then: if a range
 * failed, the command fails and the alias stays where it is (a retry reads the failed ranges again). Otherwise the
 * documents imported since the reindex began are written too (the catch-up, from the imported time the command
 * recorded at its start, less a margin), the template's settings come back, and the repository's alias moves to
 * the new index in one request; a second catch-up then takes what was imported while the first ran (until the
 * move, the index stage wrote it to the old index). External versions make the overlaps harmless. Every step is
 * idempotent, so a finish interrupted by a failure runs again whole.
 */
public final class FinishReindex extends AbstractStreamOperator<DeadLetter>
        implements OneInputStreamOperator<DeadLetter, DeadLetter>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FinishReindex.class);

    /**
     * What the finish does: move the alias to {@code generation}, the index the reindex filled; catch up from
     * {@code catchUpMargin} before each catch-up begins, {@code batchSize} documents a request; delete the index the
     * alias left, or keep it; hold the first catch-up's read {@code holdCatchUp} (a test's slow read, else zero).
     */
    record Finish(String generation, Duration catchUpMargin, int batchSize, boolean deleteOld, Duration holdCatchUp)
            implements Serializable {
    }

    private final RangeSettings settings;
    private final Finish finish;
    private final MongoConnection mongoConnection;
    private final SearchConnection search;
    /** The catch-up's writer: into the generation, on {@link #search}; a failed document is dead-lettered as imported. */
    private final BulkWriter<ImportedEvent> catchUpWriter;

    private transient ListState<Long> errorsState;
    private transient long errors;
    private transient MongoRepositories repositories;
    private transient MongoDatabase database;
    private transient DeadLetters deadLetters;

    /** Reads MongoDB where the reindex source did ({@code settings}' databases) and retries as it does. */
    FinishReindex(RangeSettings settings, Finish finish, SearchConnection search, AvroCodec<ImportedEvent> importedCodec) {
        this.settings = settings;
        this.finish = finish;
        this.mongoConnection = new MongoConnection(settings.databases(), settings.backoff());
        this.search = search;
        this.catchUpWriter = new SearchSinkBuilder().setConnection(search).setBackoff(settings.backoff())
                .setDeadLetterCodec(importedCodec).setGeneration(finish.generation()).buildWriter();
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        errorsState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("errors", Long.class));
        for (Long count : errorsState.get()) {
            errors += count;
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        errorsState.update(List.of(errors));
    }

    @Override
    public void open() throws Exception {
        super.open();
        repositories = mongoConnection.openRepositories(getRuntimeContext());
        database = repositories.shared();
        deadLetters = new DeadLetters(getMetricGroup(), MetricNames.REINDEX);
        catchUpWriter.open(getRuntimeContext());
    }

    @Override
    public void processElement(StreamRecord<DeadLetter> deadLetter) {
        errors++;
        output.collect(deadLetter);
    }

    @Override
    public void endInput() throws Exception {
        CommandStore commands = new CommandStore(database);
        CommandRanges.Counts ranges = new CommandRanges(database).counts(settings.commandId());
        if (ranges.failed() > 0) {
            String firstReason = new CommandRanges(database).failed(settings.commandId()).get(0).reason();
            commands.state(settings.commandId(), CommandStore.State.FAILED, Updates.set(CommandStore.ERRORS, errors),
                    Updates.set(CommandStore.PROCESSED, ranges.documents()),
                    Updates.set(CommandStore.ERROR, ranges.failed() + " of " + ranges.total() + " id ranges failed (first: "
                            + firstReason + "); the alias stays on the old index. Retry them: POST /api/v1/bulk/"
                            + settings.commandId() + "/retry"));
            LOG.warn("{}: {} of {} ranges failed; alias not moved", settings.commandId(), ranges.failed(), ranges.total());
            return;
        }
        Document record = commands.find(settings.commandId()).orElseThrow(() ->
                new IllegalStateException("command " + settings.commandId() + " has no record"));
        Instant firstFrom = record.getDate(CommandStore.CATCH_UP_FROM).toInstant();
        SearchIndices indices = search.indices();
        Instant secondFrom = Instant.now().minus(finish.catchUpMargin());
        commands.set(settings.commandId(), finishing(CommandStore.Finishing.CATCHING_UP));
        long caughtUp = catchUp(firstFrom, finish.holdCatchUp());
        commands.set(settings.commandId(), finishing(CommandStore.Finishing.MOVING_ALIAS));
        indices.finishLoad(settings.repository(), finish.generation());
        Optional<String> left = indices.swap(settings.repository(), finish.generation());
        commands.set(settings.commandId(), finishing(CommandStore.Finishing.CATCHING_UP_AFTER_MOVE));
        caughtUp += catchUp(secondFrom, Duration.ZERO);
        // A bulk command still reading its selection from the old generation keeps it: deleted, its slices are lost.
        List<String> readers = left.map(commands::readingFrom).orElse(List.of());
        boolean deleted = finish.deleteOld() && left.isPresent() && readers.isEmpty();
        if (deleted) {
            indices.deleteGeneration(left.get());
        } else if (finish.deleteOld() && left.isPresent()) {
            LOG.warn("{}: {} kept, not deleted: commands {} read their selections from it", settings.commandId(),
                    left.get(), readers);
        }
        long processed = ranges.documents() + caughtUp;
        commands.state(settings.commandId(), CommandStore.State.COMPLETED, Updates.set(CommandStore.PROCESSED, processed),
                Updates.set(CommandStore.TOTAL, processed), Updates.set(CommandStore.ERRORS, errors),
                Updates.set("caughtUp", caughtUp), Updates.set("ranges.total", ranges.total()),
                Updates.set(CommandStore.PREVIOUS_INDEX, left.orElse(null)),
                Updates.set("previousIndexDeleted", deleted), Updates.unset(CommandStore.FINISHING));
        LOG.info("{}: {} documents reindexed into {} ({} caught up), alias {} moved from {}", settings.commandId(),
                processed, finish.generation(), caughtUp, search.names().of(settings.repository()), left.orElse("nothing"));
    }

    private static Bson finishing(CommandStore.Finishing phase) {
        return Updates.set(CommandStore.FINISHING, phase.name());
    }

    /**
     * Writes what was imported since {@code from} (deletes included), with the files' texts stored for it, into the
     * new index; returns how many. The read runs aside ({@link PagesReadAside}): a driver blocked in a long scan
     * answers no interrupt, and a cancellation must not wait for it.
     */
    private long catchUp(Instant from, Duration hold) throws InterruptedException {
        int batchSize = finish.batchSize();
        MongoCollection<Document> fileTexts = repositories.fileTexts(settings.repository());
        long written = 0;
        try (PagesReadAside<Document> pages = new PagesReadAside<>("catch-up of " + settings.commandId(),
                repositories.collection(settings.repository()).find(Filters.gte(DocumentFields.IMPORTED_AT,
                        Date.from(from))).batchSize(batchSize), batchSize, hold)) {
            for (Optional<List<Document>> page = pages.next(); page.isPresent(); page = pages.next()) {
                written += write(page.get(), fileTexts);
            }
        }
        return written;
    }

    /** Writes a page of stored documents, with their texts from {@code fileTexts}; returns how many. */
    private long write(List<Document> page, MongoCollection<Document> fileTexts) {
        Map<String, String> texts = MongoDocumentStore.fileTexts(fileTexts, page);
        List<ImportedEvent> batch = page.stream().map(stored ->
                MongoDocumentStore.toImported(stored, texts.get(stored.getString(DocumentFields.KEY)))).toList();
        BulkResult<ImportedEvent> result = catchUpWriter.write(batch);
        for (BulkResult.Failure<ImportedEvent> failure : result.failed()) {
            errors++;
            output.collect(new StreamRecord<>(deadLetters.of(failure.reasonClass(), failure.reason(),
                    catchUpWriter.idOf(failure.item()), catchUpWriter.payloadOf(failure.item()))));
        }
        return result.written().size() + result.stale().size();
    }

    @Override
    public void close() throws Exception {
        try {
            catchUpWriter.close(); // and the search connection it shares
            mongoConnection.close();
        } finally {
            super.close();
        }
    }
}
