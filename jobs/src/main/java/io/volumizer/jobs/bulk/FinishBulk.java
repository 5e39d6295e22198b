package io.volumizer.jobs.bulk;

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
    private transient long processed;
    private transient long skipped;
    private transient boolean ended;
    /** Counts as of each checkpoint taken and not yet complete; whether input had ended by then. */
    private transient TreeMap<Long, long[]> snapshots;
    private transient MongoDatabase database;

    FinishBulk(MongoConnection mongo, String commandId) {
        this.mongo = mongo;
        this.commandId = commandId;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("counts", Long.class));
        List<Long> restored = new java.util.ArrayList<>();
        state.get().forEach(restored::add);
        if (restored.size() == 2) {
            processed = restored.get(0);
            skipped = restored.get(1);
        }
        snapshots = new TreeMap<>();
    }

    @Override
    public void open() throws Exception {
        super.open();
        database = mongo.openShared(getRuntimeContext());
    }

    @Override
    public void processElement(StreamRecord<Counts> counts) {
        processed += counts.getValue().processed();
        skipped += counts.getValue().skipped();
    }

    @Override
    public void endInput() {
        ended = true;
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.update(List.of(processed, skipped));
        snapshots.put(context.getCheckpointId(), new long[] {processed, skipped, ended ? 1 : 0});
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        long[] counts = snapshots.get(checkpointId);
        if (counts == null) {
            return;
        }
        snapshots.headMap(checkpointId, true).clear();
        CommandStore commands = new CommandStore(database);
        if (counts[2] == 0) {
            commands.set(commandId, Updates.set(CommandStore.PROCESSED, counts[0]), Updates.set(CommandStore.SKIPPED, counts[1]));
            return;
        }
        long total = 0;
        Document slices = commands.find(commandId).map(record -> record.get("slices", Document.class)).orElse(null);
        if (slices != null) {
            for (Map.Entry<String, Object> slice : slices.entrySet()) {
                total += ((Number) slice.getValue()).longValue();
            }
        }
        commands.state(commandId, CommandStore.State.COMPLETED, Updates.set(CommandStore.PROCESSED, counts[0]),
                Updates.set(CommandStore.SKIPPED, counts[1]), Updates.set(CommandStore.TOTAL, total));
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
