package io.volumizer.jobs.bulk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

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

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Updates;

import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.commands.EmittedUntil;

/**
 * The counts of a bulk command, in one subtask: added up in state, and written to the command record when a
 * checkpoint completes, the moment the events counted up to it are committed to the documents topic. After the
 * last checkpoint (every slice read, every event committed) the command is APPLYING, its total the sum of the
 * slices' sizes, with the documents topic's end offsets: once an import has read past them, every change is
 * applied (the command's status says when, see the API's {@code Commands}); the point in time its slices read is
 * closed then.
 */
final class FinishBulk extends AbstractStreamOperator<Void> implements OneInputStreamOperator<Counts, Void>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final MongoConnection mongo;
    private final SearchConnection search;
    private final String commandId;
    private final Properties kafka;
    private final String documentsTopic;

    private transient ListState<Long> state;
    private transient Counts counts;
    private transient boolean ended;
    /** As of each checkpoint taken and not yet complete. */
    private transient TreeMap<Long, Snapshot> snapshots;
    private transient MongoDatabase database;

    /** The counts as of a checkpoint, and whether every slice had been read by then. */
    private record Snapshot(Counts counts, boolean ended) {
    }

    /** @param kafka the client properties that reach the documents topic, whose end offsets the command records */
    FinishBulk(MongoConnection mongo, SearchConnection search, String commandId, Properties kafka, String documentsTopic) {
        this.mongo = mongo;
        this.search = search;
        this.commandId = commandId;
        this.kafka = kafka;
        this.documentsTopic = documentsTopic;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("counts", Long.class));
        List<Long> restored = new ArrayList<>();
        state.get().forEach(restored::add);
        counts = restored.size() == 2 ? new Counts(restored.get(0), restored.get(1)) : Counts.NONE;
        snapshots = new TreeMap<>();
    }

    @Override
    public void open() throws Exception {
        super.open();
        database = mongo.openShared(getRuntimeContext());
    }

    @Override
    public void processElement(StreamRecord<Counts> more) {
        counts = counts.plus(more.getValue());
    }

    @Override
    public void endInput() {
        ended = true;
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.update(List.of(counts.processed(), counts.skipped()));
        snapshots.put(context.getCheckpointId(), new Snapshot(counts, ended));
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        Snapshot snapshot = snapshots.get(checkpointId);
        if (snapshot == null) {
            return;
        }
        snapshots.headMap(checkpointId, true).clear();
        CommandStore commands = new CommandStore(database);
        Bson processed = Updates.set(CommandStore.PROCESSED, snapshot.counts().processed());
        Bson skipped = Updates.set(CommandStore.SKIPPED, snapshot.counts().skipped());
        if (!snapshot.ended()) {
            commands.set(commandId, processed, skipped);
            return;
        }
        long total = 0;
        Document record = commands.find(commandId).orElseGet(Document::new);
        Document slices = record.get("slices", Document.class);
        if (slices != null) {
            for (Map.Entry<String, Object> slice : slices.entrySet()) {
                total += ((Number) slice.getValue()).longValue();
            }
        }
        commands.state(commandId, CommandStore.State.APPLYING, processed, skipped, Updates.set(CommandStore.TOTAL, total),
                EmittedUntil.now(kafka, documentsTopic).recorded(), Updates.unset(CommandStore.POINT_IN_TIME));
        String pointInTime = record.getString(CommandStore.POINT_IN_TIME);
        if (pointInTime != null) {
            search.reader().closePointInTime(pointInTime);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            mongo.close();
        } finally {
            try {
                search.close();
            } finally {
                super.close();
            }
        }
    }
}
