package io.volumizer.stores.commands;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.bson.Document;
import org.bson.conversions.Bson;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;

/**
 * The records of long-running commands (a reindex, a bulk update), in the repositories' database next to them:
 * what was asked, the Flink job doing it, where it stands. The API and the CLI create and read them, the jobs
 * write their progress: a command outlives the API that started it, and the job that ran it.
 *
 * <p>A record: {@code _id} (the command id), {@code action}, {@code repository}, {@code state} ({@link State}),
 * {@code submitted, started, completed}, {@code total, processed, skipped, errors}, what the action was asked
 * ({@code query, params}) and what it made ({@code jobId, savepoint, index, previousIndex, error}). Reindex ranges
 * are apart, in {@link CommandRanges}.
 */
public final class CommandStore {

    /** The collection: a name no repository can have (theirs start with a letter or digit). */
    public static final String COLLECTION = "_volumizer_commands";

    public static final String ID = "_id";
    public static final String ACTION = "action";
    public static final String REPOSITORY = "repository";
    public static final String STATE = "state";
    public static final String SUBMITTED = "submitted";
    public static final String STARTED = "started";
    public static final String COMPLETED = "completed";
    public static final String TOTAL = "total";
    public static final String PROCESSED = "processed";
    public static final String SKIPPED = "skipped";
    public static final String ERRORS = "errors";
    public static final String QUERY = "query";
    public static final String PARAMS = "params";
    public static final String JOB_ID = "jobId";
    public static final String SAVEPOINT = "savepoint";
    public static final String INDEX = "index";
    public static final String PREVIOUS_INDEX = "previousIndex";
    public static final String CATCH_UP_FROM = "catchUpFrom";
    public static final String ERROR = "error";
    /** setAcl: the rounds it read the subtree in (the last found nothing to change). */
    public static final String ROUNDS = "rounds";
    /**
     * A bulk command that emitted every change: the end offsets of the documents topic then, {@code {topic, offsets:
     * {partition: offset}}}; an import that has read past them in every partition has applied every change.
     */
    public static final String EMITTED_UNTIL = "emittedUntil";
    /** A bulk command: when its job had emitted every change (it then waits for the import to apply them). */
    public static final String EMITTED = "emitted";
    /** The imports' progress last seen on the documents topic, {@code {at, committed}}: whether an import is running. */
    public static final String IMPORT_PROGRESS = "importProgress";
    /** A bulk command, once COMPLETED: the documents whose stored version is its change (fewer if changed since). */
    public static final String APPLIED = "applied";
    /**
     * A bulk command an import has read past: the documents counted as applied then, {@code {count, committed}}, with
     * the imports' progress; the count must hold across a checkpoint of the import's before the command is COMPLETED.
     */
    public static final String APPLIED_SEEN = "appliedSeen";

    /**
     * A bulk command, while its slices are read: the point in time they share (where the engine has one), replaced
     * by the first slice that finds it gone.
     */
    public static final String POINT_IN_TIME = "pointInTime";
    /**
     * A bulk command: the generation its selection is read from, the one the repository's alias pointed to when its
     * first slice started. Every slice, every restart and every replaced point in time reads it, so a slice holds the
     * same documents though a reindex moves the alias meanwhile (slices are cut by shard, then by id).
     */
    public static final String SELECTION_INDEX = "selectionIndex";
    /** A bulk command: how its selection was read, a {@link SelectionRead}'s name. */
    public static final String SELECTION_READ = "selectionRead";

    /** A reindex whose ranges were all read: what its finish does now, a {@link Finishing}'s name; gone once it ended. */
    public static final String FINISHING = "finishing";

    /** The action of a reindex command; a bulk command's is what it does to each document. */
    public static final String REINDEX = "reindex";

    /**
     * Where a command is. A bulk command's job ends APPLYING: every change is in the documents topic, and the import
     * applies them; WAITING_FOR_IMPORT while no import reads the topic; COMPLETED once an import has read past them.
     */
    public enum State {
        SCHEDULED, RUNNING, APPLYING, WAITING_FOR_IMPORT, COMPLETED, ABORTED, FAILED;

        /** Not ended: the command's job runs, or its changes wait for the import. */
        public boolean isActive() {
            return this == SCHEDULED || this == RUNNING || isApplying();
        }

        /** Its job has ended, its changes not yet all applied. */
        public boolean isApplying() {
            return this == APPLYING || this == WAITING_FOR_IMPORT;
        }
    }

    /**
     * How a bulk command reads its selection: every slice from one point in time, or each slice from a scroll of its
     * own, opened when the slice starts (where the engine has no point in time).
     */
    public enum SelectionRead { POINT_IN_TIME, SLICED_SCROLL }

    /**
     * A reindex's finish: writing what was imported since it began, moving the alias (with the template's settings
     * back), then writing what was imported while the first catch-up ran.
     */
    public enum Finishing { CATCHING_UP, MOVING_ALIAS, CATCHING_UP_AFTER_MOVE }

    private final MongoCollection<Document> commands;

    public CommandStore(MongoDatabase database) {
        this.commands = database.getCollection(COLLECTION);
    }

    /**
     * Records a command, SCHEDULED, with what it was asked ({@code request}: query, params...), unless a record of
     * that id exists (a job submitted again under its command id finds its record).
     */
    public void createIfAbsent(String commandId, String action, String repository, Document request) {
        Document record = new Document(ACTION, action).append(REPOSITORY, repository)
                .append(STATE, State.SCHEDULED.name()).append(SUBMITTED, new Date())
                .append(TOTAL, 0L).append(PROCESSED, 0L).append(SKIPPED, 0L).append(ERRORS, 0L);
        record.putAll(request);
        commands.updateOne(Filters.eq(ID, commandId), new Document("$setOnInsert", record), new UpdateOptions().upsert(true));
    }

    public Optional<Document> find(String commandId) {
        return Optional.ofNullable(commands.find(Filters.eq(ID, commandId)).first());
    }

    /** Commands of a repository and an action that are scheduled or running, newest first. */
    public List<Document> active(String repository, String action) {
        return commands.find(Filters.and(Filters.eq(REPOSITORY, repository), Filters.eq(ACTION, action),
                Filters.in(STATE, State.SCHEDULED.name(), State.RUNNING.name()))).sort(Sorts.descending(SUBMITTED))
                .into(new ArrayList<>());
    }

    /** The newest command of a repository and an action in {@code state}, if any. */
    public Optional<Document> newest(String repository, String action, State state) {
        return Optional.ofNullable(commands.find(Filters.and(Filters.eq(REPOSITORY, repository),
                Filters.eq(ACTION, action), Filters.eq(STATE, state.name()))).sort(Sorts.descending(SUBMITTED)).first());
    }

    /** Every command that has not ended ({@link State#isActive()}), of every repository. */
    public List<Document> unfinished() {
        return commands.find(Filters.in(STATE, Arrays.stream(State.values()).filter(State::isActive).map(State::name)
                .toList())).into(new ArrayList<>());
    }

    /** Sets fields of a record (dotted paths for nested ones). */
    public void set(String commandId, Bson... updates) {
        commands.updateOne(Filters.eq(ID, commandId), Updates.combine(updates));
    }

    /** Moves a command to {@code state}, stamping when it started or ended, with other changes in the same write. */
    public void state(String commandId, State state, Bson... updates) {
        commands.updateOne(Filters.eq(ID, commandId), Updates.combine(stateUpdates(state, updates)));
    }

    /**
     * Moves a command to {@code state} as {@link #state} does, if it is still in one of {@code from}: of two readers
     * that saw it in one state, the later cannot undo what the earlier decided. Returns whether it moved.
     */
    public boolean stateIf(String commandId, Set<State> from, State state, Bson... updates) {
        return commands.updateOne(Filters.and(Filters.eq(ID, commandId), Filters.in(STATE, from.stream().map(State::name)
                .toList())), Updates.combine(stateUpdates(state, updates))).getMatchedCount() > 0;
    }

    /**
     * Records {@code opened} as a command's point in time if the record still holds {@code expected} (null: none):
     * of two slices that found the same one gone, the later reads the earlier's. Returns whether it recorded it.
     */
    public boolean replacePointInTime(String commandId, String expected, String opened) {
        return commands.updateOne(Filters.and(Filters.eq(ID, commandId), Filters.eq(POINT_IN_TIME, expected)),
                Updates.set(POINT_IN_TIME, opened)).getMatchedCount() > 0;
    }

    /**
     * Records {@code value} as a command's {@code field} unless the record holds one already (of two slices that
     * start together, the later reads the earlier's). Returns the value recorded.
     */
    public String recordOnce(String commandId, String field, String value) {
        commands.updateOne(Filters.and(Filters.eq(ID, commandId), Filters.eq(field, null)), Updates.set(field, value));
        return find(commandId).map(record -> record.getString(field))
                .orElseThrow(() -> new IllegalStateException("command " + commandId + " has no record"));
    }

    /** The scheduled or running commands that read their selection from {@code generation}. */
    public List<String> readingFrom(String generation) {
        return commands.find(Filters.and(Filters.eq(SELECTION_INDEX, generation),
                Filters.in(STATE, State.SCHEDULED.name(), State.RUNNING.name()))).map(record -> record.getString(ID))
                .into(new ArrayList<>());
    }

    private static List<Bson> stateUpdates(State state, Bson... updates) {
        List<Bson> all = new ArrayList<>(List.of(updates));
        all.add(Updates.set(STATE, state.name()));
        if (state == State.RUNNING) {
            all.add(Updates.set(STARTED, new Date()));
            all.add(Updates.unset(COMPLETED));
            all.add(Updates.unset(ERROR));
        } else if (!state.isActive()) {
            all.add(Updates.set(COMPLETED, new Date()));
        }
        return all;
    }

    public static State stateOf(Document record) {
        return State.valueOf(record.getString(STATE));
    }
}
