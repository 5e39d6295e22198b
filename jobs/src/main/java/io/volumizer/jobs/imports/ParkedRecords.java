package io.volumizer.jobs.imports;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;

import io.volumizer.jobs.internal.kafka.RawRecord;

/**
 * The records of one key waiting for their parent, and the wait's bookkeeping, in keyed state (the state names are
 * those of savepoints already taken). Records are kept in {@link RawRecord#toBytes()} form: cheap to snapshot at every
 * checkpoint.
 */
final class ParkedRecords {

    private final ListState<byte[]> records;
    private final ValueState<Long> since;
    private final ValueState<Long> nextLookup;
    private final ValueState<Long> lookedUpAfter;
    private final ValueState<Long> expiresAfter;
    private final ValueState<Boolean> lookedUpOnce;

    ParkedRecords(RuntimeContext context) {
        records = context.getListState(new ListStateDescriptor<>("parked-records",
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        since = context.getState(new ValueStateDescriptor<>("parked-since", Types.LONG));
        nextLookup = context.getState(new ValueStateDescriptor<>("next-lookup", Types.LONG));
        lookedUpAfter = context.getState(new ValueStateDescriptor<>("looked-up-after-checkpoint", Types.LONG));
        expiresAfter = context.getState(new ValueStateDescriptor<>("expires-after-checkpoint", Types.LONG));
        lookedUpOnce = context.getState(new ValueStateDescriptor<>("parked-looked-up", Types.BOOLEAN));
    }

    boolean isEmpty() throws Exception {
        return since.value() == null;
    }

    /**
     * Parks a record; the first one of the key starts the wait: parked {@code now}, first lookup at {@code lookupAt},
     * {@code lastCompleted} the newest checkpoint complete. Returns whether it was the first.
     */
    boolean add(RawRecord record, long now, long lookupAt, long lastCompleted) throws Exception {
        records.add(record.toBytes());
        if (since.value() != null) {
            return false;
        }
        since.update(now);
        nextLookup.update(lookupAt);
        lookedUpAfter.update(lastCompleted);
        return true;
    }

    List<RawRecord> records() throws Exception {
        List<RawRecord> waiting = new ArrayList<>();
        records.get().forEach(bytes -> waiting.add(RawRecord.fromBytes(bytes)));
        return waiting;
    }

    /** The time of the first record parked. */
    long firstTime() throws Exception {
        return RawRecord.fromBytes(records.get().iterator().next()).timestamp;
    }

    void keep(List<RawRecord> stillWaiting) throws Exception {
        records.update(stillWaiting.stream().map(RawRecord::toBytes).toList());
    }

    /** When the first record was parked, on the subtask's clock. */
    long since() throws Exception {
        return since.value();
    }

    /** When the parent is next looked up; null once a firing has taken the lookup due and not yet set the next. */
    Long nextLookup() throws Exception {
        return nextLookup.value();
    }

    void nextLookup(long at) throws Exception {
        nextLookup.update(at);
    }

    /** The newest checkpoint complete when the parent was last looked up (or the first record parked). */
    Long lookedUpAfter() throws Exception {
        return lookedUpAfter.value();
    }

    /**
     * The parent looked up now, {@code checkpointId} the newest checkpoint complete; returns whether it had been
     * looked up before for these records (a wait restored from a savepoint of an older version counts as new).
     */
    boolean lookedUp(long checkpointId) throws Exception {
        lookedUpAfter.update(checkpointId);
        boolean before = lookedUpOnce.value() != null;
        lookedUpOnce.update(true);
        return before;
    }

    /**
     * Set once the watermark has passed the first parked record's time: the checkpoint after whose completion the
     * records whose time has passed are dead-lettered if their parent is still missing; null before.
     */
    Long expiresAfter() throws Exception {
        return expiresAfter.value();
    }

    void expiresAfter(long checkpointId) throws Exception {
        expiresAfter.update(checkpointId);
    }

    void clearExpiry() {
        expiresAfter.clear();
    }

    void clear() {
        records.clear();
        since.clear();
        nextLookup.clear();
        lookedUpAfter.clear();
        expiresAfter.clear();
        lookedUpOnce.clear();
    }
}
