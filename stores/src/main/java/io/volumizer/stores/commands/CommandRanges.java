package io.volumizer.stores.commands;

import java.util.ArrayList;
import java.util.List;

import org.bson.Document;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;

/**
 * The id ranges of a reindex, one record each: found, read through (with how many documents), or failed (with
 * why). The source's enumerator records the ranges it finds, its readers what became of each; the status counts
 * them, and a retry reads the failed ones back. A record per range, not a list in the command, so a reindex of
 * billions of documents in millions of ranges stays within MongoDB's document size.
 *
 * <p>Every write is idempotent: a range read again after a restart is recorded again, as read or failed.
 */
public final class CommandRanges {

    public static final String COLLECTION = "_volumizer_command_ranges";

    /** What became of a range. */
    public enum State { PENDING, DONE, FAILED }

    /** A range of ids, {@code [from, to)} ({@code null}: open), and why it failed if it did. */
    public record Range(String commandId, int index, String from, String to, State state, String reason) {
    }

    /** How many ranges there are, and how many are read through or failed. */
    public record Counts(long total, long processed, long failed, long documents) {
    }

    private final MongoCollection<Document> ranges;

    public CommandRanges(MongoDatabase database) {
        this.ranges = database.getCollection(COLLECTION);
    }

    /** Records ranges as found (pending), keeping the state of any recorded before. */
    public void found(String commandId, List<Range> found) {
        if (found.isEmpty()) {
            return;
        }
        List<UpdateOneModel<Document>> writes = new ArrayList<>();
        for (Range range : found) {
            writes.add(new UpdateOneModel<>(Filters.eq("_id", key(commandId, range.index())),
                    Updates.combine(Updates.set("command", commandId), Updates.set("index", range.index()),
                            Updates.set("from", range.from()), Updates.set("to", range.to()),
                            Updates.setOnInsert("state", State.PENDING.name())),
                    new UpdateOptions().upsert(true)));
        }
        ranges.bulkWrite(writes);
    }

    /** A range read through: {@code documents} read in it. */
    public void done(String commandId, int index, String from, String to, long documents) {
        ranges.replaceOne(Filters.eq("_id", key(commandId, index)), record(commandId, index, from, to, State.DONE)
                .append("documents", documents), new ReplaceOptions().upsert(true));
    }

    public void failed(String commandId, int index, String from, String to, String reason) {
        ranges.replaceOne(Filters.eq("_id", key(commandId, index)), record(commandId, index, from, to, State.FAILED)
                .append("reason", reason), new ReplaceOptions().upsert(true));
    }

    public Counts counts(String commandId) {
        long total = 0;
        long processed = 0;
        long failed = 0;
        long documents = 0;
        for (Document group : ranges.aggregate(List.of(Aggregates.match(Filters.eq("command", commandId)),
                Aggregates.group("$state", Accumulators.sum("ranges", 1), Accumulators.sum("documents", "$documents"))))) {
            long count = ((Number) group.get("ranges")).longValue();
            total += count;
            if (State.DONE.name().equals(group.get("_id"))) {
                processed = count;
                documents = ((Number) group.get("documents")).longValue();
            } else if (State.FAILED.name().equals(group.get("_id"))) {
                failed = count;
            }
        }
        return new Counts(total, processed, failed, documents);
    }

    /** The failed ranges, in id order: what a retry reads again. */
    public List<Range> failed(String commandId) {
        List<Range> failed = new ArrayList<>();
        for (Document range : ranges.find(Filters.and(Filters.eq("command", commandId),
                Filters.eq("state", State.FAILED.name()))).sort(Sorts.ascending("index"))) {
            failed.add(new Range(commandId, range.getInteger("index"), range.getString("from"), range.getString("to"),
                    State.FAILED, range.getString("reason")));
        }
        return failed;
    }

    /** Forgets a command's ranges (its record is deleted with them). */
    public void delete(String commandId) {
        ranges.deleteMany(Filters.eq("command", commandId));
    }

    private static Document record(String commandId, int index, String from, String to, State state) {
        return new Document("command", commandId).append("index", index).append("from", from).append("to", to)
                .append("state", state.name());
    }

    private static String key(String commandId, int index) {
        return commandId + "/" + index;
    }
}
