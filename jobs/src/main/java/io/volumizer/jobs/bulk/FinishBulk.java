package io.volumizer.jobs.bulk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

import io.volumizer.jobs.internal.stores.MongoConnection;
import io.volumizer.stores.commands.CommandStore;

/**
 * The counts of a bulk command, in one subtask: added up in state, and written to the command record when a
 * checkpoint completes, the moment the events counted up to it are committed to the documents topic. After the
 * last checkpoint (every slice read, every event committed) the command is COMPLETED, its total the sum of the
 * slices' sizes.
 */
final class FinishBulk extends AbstractStreamOperator<Void> implements OneInputStreamOperator<Counts, Void>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final MongoConnection mongo;
    private final String commandId;

    private transient ListState<Long> state;
    private transient Counts counts;
    private transient boolean ended;
    /** As of each checkpoint taken and not yet complete. */
    private transient TreeMap<Long, Snapshot> snapshots;
    private transient MongoDatabase database;

    /** The counts as of a checkpoint, and whether every slice had been read by then. */
    private record Snapshot(Counts counts, boolean ended) {
    }

    FinishBulk(MongoConnection mongo, String commandId) {
        this.mongo = mongo;
        this.commandId = commandId;
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
        Document slices = commands.find(commandId).map(record -> record.get("slices", Document.class)).orElse(null);
        if (slices != null) {
            for (Map.Entry<String, Object> slice : slices.entrySet()) {
                total += ((Number) slice.getValue()).longValue();
            }
        }
        commands.state(commandId, CommandStore.State.COMPLETED, processed, skipped, Updates.set(CommandStore.TOTAL, total));
    }

    @Override
    public void close() throws Exception {
        try {
            mongo.close();
        } finally {
            super.close();
        }
    }
}
