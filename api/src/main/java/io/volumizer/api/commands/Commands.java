package io.volumizer.api.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.apache.kafka.common.KafkaException;
import org.bson.Document;
import org.bson.conversions.Bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;

import io.volumizer.api.commands.CommandRefusedException.Reason;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.Options;
import io.volumizer.domain.selection.Selection;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.options.steps.CommandStepOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.SetAclOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.ThrottleSetting;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.AclJson;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.PropertyValues;
import io.volumizer.stores.commands.CommandRanges;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.commands.CommandStore.State;
import io.volumizer.stores.commands.EmittedUntil;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.InvalidFieldException;

/**
 * Long-running commands on a repository, each a Flink job on the session cluster: a reindex, a bulk update or
 * delete, a folder's ACL change (setAcl). Requests are checked before anything runs; each command gets a record ({@link CommandStore}) that its
 * job writes progress to, so its status is read from the stores, whoever asks (the API, the CLI) and whether or
 * not they started it. A command can be aborted (its job stopped with a savepoint), resumed from that savepoint,
 * and a reindex whose ranges failed can read those again.
 */
public final class Commands {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final Duration SAVEPOINT_TIMEOUT = Duration.ofMinutes(5);
    private static final String JOB_ARGUMENTS = "jobArguments";
    /** The request's field (the CLI's {@code --all}) that says a bulk command without filters means every document. */
    public static final String ALL = "all";
    private static final int FAILED_RANGES_SHOWN = 10;
    /** The bulk actions: those of the bulk update job, and setAcl. */
    public static final List<String> ACTIONS = Stream.concat(Arrays.stream(BulkUpdateOptions.Action.values()).map(Enum::name),
            Stream.of(SetAclOptions.ACTION)).toList();
    /** What an operator, and a write (which needs the API's token), may read of the commands' records. */
    private static final Predicate<Document> EVERY_RECORD = record -> true;

    /**
     * How long the imports' committed offsets on the documents topic may stand still before a bulk command's changes
     * are said to wait for an import: six checkpoints at the default interval, each of which moves them.
     */
    static final Duration IMPORT_IDLE = Duration.ofSeconds(30);
    /** Fields of the imports' progress and of the applied count as a status read saw them. */
    private static final String AT = "at";
    private static final String COMMITTED = "committed";
    private static final String COUNT = "count";

    private final FlinkSessionClient flink;
    private final CommandJobs jobs;
    private final Properties kafka;
    private final MongoRepositories repositories;
    private final SearchEngine search;
    private final IndexNames indices;
    private final List<String> pipelineArguments;
    private final CommandStore commands;
    private final CommandRanges ranges;

    /**
     * @param flink where the commands' jobs are read: their state, exceptions and metrics
     * @param jobs how they are started and stopped
     * @param pipelineArguments the services and topics the jobs are given (as {@code job submit} takes them)
     * @param kafka the client properties that reach the documents topic: a bulk command is applied once an import
     *              has read past its changes there
     * @param search  where a bulk command's documents indexed are counted, by the repositories' aliases of {@code indices}
     */
    public Commands(FlinkSessionClient flink, CommandJobs jobs, MongoRepositories repositories, SearchEngine search,
            IndexNames indices, List<String> pipelineArguments, Properties kafka) {
        this.flink = flink;
        this.jobs = jobs;
        this.kafka = kafka;
        this.repositories = repositories;
        this.search = search;
        this.indices = indices;
        this.pipelineArguments = List.copyOf(pipelineArguments);
        this.commands = new CommandStore(repositories.shared());
        this.ranges = new CommandRanges(repositories.shared());
    }

    /** Commands whose jobs are submitted through the session cluster's REST API, from {@code jobsJar}. */
    public Commands(FlinkSessionClient flink, Path jobsJar, MongoRepositories repositories, SearchEngine search,
            IndexNames indices, List<String> pipelineArguments, Properties kafka) {
        this(flink, new RestCommandJobs(flink, jobsJar), repositories, search, indices, pipelineArguments, kafka);
    }

    /**
     * Starts a reindex of {@code repository} (at most one at a time per repository).
     *
     * @param options more options of the reindex job ({@code --delete-old}, {@code --range-size 5000}...)
     * @return the command id
     * @throws CommandRefusedException 404 for a repository without documents, 409 while another reindex runs
     */
    public String reindex(String repository, List<String> options) throws IOException {
        checkRepository(repository);
        refuseWhileActive(repository, CommandStore.REINDEX);
        String commandId = newId(Step.REINDEX, repository);
        List<String> arguments = new ArrayList<>(List.of("--repository", repository, "--command-id", commandId));
        arguments.addAll(options);
        check(Step.REINDEX, arguments);
        commands.createIfAbsent(commandId, CommandStore.REINDEX, repository, new Document(JOB_ARGUMENTS, arguments));
        submit(commandId, Step.REINDEX, arguments, null);
        return commandId;
    }

    /**
     * Starts a bulk command: {@code action} on the documents the filters select, or on every document of the
     * repository when asked for in so many words ({@code all}): a request that merely forgot its filters must not
     * change or delete a whole repository.
     *
     * @param filters the search API's filters (q, type, state, customer, from, to)
     * @param all whether no filter means every document (else it is refused)
     * @param properties for setProperties, the properties to set (JSON scalars)
     * @throws CommandRefusedException 400 naming an unknown filter, a bad value, a property that cannot be stored,
     *                                 or a missing selection
     */
    public String bulk(String repository, String action, Map<String, String> filters, boolean all,
            JsonNode properties) throws IOException {
        BulkUpdateOptions.Action parsedAction;
        try {
            parsedAction = BulkUpdateOptions.Action.valueOf(String.valueOf(action));
        } catch (IllegalArgumentException e) {
            throw new CommandRefusedException(Reason.INVALID, "action", "action must be one of " + ACTIONS
                    + ", was '" + action + "'");
        }
        Selection selection;
        try {
            selection = Selection.parse(filters);
        } catch (InvalidFieldException e) {
            throw new CommandRefusedException(Reason.INVALID, "query." + e.field(), e.getMessage());
        }
        if (selection.filters().isEmpty() && !all) {
            throw new CommandRefusedException(Reason.INVALID, ALL, "no selection: a bulk command without a filter (query: "
                    + String.join(", ", Selection.FILTERS) + ") takes every document of " + repository
                    + ", and does so only when asked: \"all\": true (bin/volumizer bulk: --all)");
        }
        if (!selection.filters().isEmpty() && all) {
            throw new CommandRefusedException(Reason.INVALID, ALL, "all takes every document: it goes without filters, "
                    + "was given " + selection.filters().keySet());
        }
        Map<String, Object> values;
        try {
            values = properties == null || properties.isNull() ? Map.of() : PropertyValues.read(properties);
        } catch (InvalidFieldException e) {
            throw new CommandRefusedException(Reason.INVALID, "params." + e.field(), e.getMessage());
        }
        if (parsedAction == BulkUpdateOptions.Action.setProperties && values.isEmpty()) {
            throw new CommandRefusedException(Reason.INVALID, "params.properties", "setProperties needs params.properties: "
                    + "an object of the property names and values to set");
        }
        if (parsedAction != BulkUpdateOptions.Action.setProperties && !values.isEmpty()) {
            throw new CommandRefusedException(Reason.INVALID, "params.properties", parsedAction + " takes no properties");
        }
        checkRepository(repository);
        String commandId = newId(Step.BULK_UPDATE, repository);
        List<String> arguments = new ArrayList<>(List.of("--repository", repository, "--command-id", commandId,
                "--action", parsedAction.name(), "--properties", JSON.valueToTree(values).toString()));
        selection.filters().forEach((name, value) -> arguments.addAll(List.of("--filter", name + "=" + value)));
        check(Step.BULK_UPDATE, arguments);
        commands.createIfAbsent(commandId, parsedAction.name(), repository, new Document(JOB_ARGUMENTS, arguments)
                .append(CommandStore.QUERY, new Document(selection.filters()))
                .append(CommandStore.PARAMS, new Document("properties", new Document(values))));
        submit(commandId, Step.BULK_UPDATE, arguments, null);
        return commandId;
    }

    /**
     * Starts a setAcl command: the folder's own ACL replaced by {@code acl}, then the effective ACL of every document
     * below it recomputed, including those created while it runs (at most one at a time per repository: two on
     * nested folders would undo each other's work).
     *
     * @param documentId the folder
     * @param acl        its new ACL ({@code {"aces": [...], "blockInheritance"}})
     * @throws CommandRefusedException 400 for a missing folder id or a bad ACL, 404 for a folder the repository does
     *                                 not hold, 409 while another setAcl runs on the repository
     */
    public String setAcl(String repository, String documentId, JsonNode acl) throws IOException {
        if (documentId == null || documentId.isBlank()) {
            throw new CommandRefusedException(Reason.INVALID, "params.document", "setAcl needs params.document: the folder "
                    + "whose ACL changes");
        }
        Acl parsed;
        try {
            parsed = AclJson.read(acl, "params.acl");
        } catch (InvalidFieldException e) {
            throw new CommandRefusedException(Reason.INVALID, e.field(), e.getMessage());
        }
        checkRepository(repository);
        Document folder = repositories.collection(repository).find(Filters.eq(DocumentFields.KEY, documentId)).first();
        if (folder == null || MongoDocumentStore.isTombstone(folder)) {
            throw new CommandRefusedException(Reason.NOT_FOUND, "params.document", "no document " + documentId + " in " + repository);
        }
        refuseWhileActive(repository, SetAclOptions.ACTION);
        String commandId = newId(Step.SET_ACL, repository);
        String aclJson = AclJson.write(parsed).toString();
        List<String> arguments = new ArrayList<>(List.of("--repository", repository, "--command-id", commandId,
                "--document", documentId, "--acl", aclJson));
        check(Step.SET_ACL, arguments);
        commands.createIfAbsent(commandId, SetAclOptions.ACTION, repository, new Document(JOB_ARGUMENTS, arguments)
                .append(CommandStore.PARAMS, new Document("document", documentId).append("acl", Document.parse(aclJson))));
        submit(commandId, Step.SET_ACL, arguments, null);
        return commandId;
    }

    /** The command's status as the API answers it (see the OpenAPI description), to an operator: any command. */
    public ObjectNode status(String commandId) throws IOException {
        return status(commandId, EVERY_RECORD);
    }

    /** The command's status, to a caller that may read the records {@code readable} accepts: others are not found. */
    public ObjectNode status(String commandId, Predicate<Document> readable) throws IOException {
        Document record = refreshed(find(commandId, readable));
        State state = CommandStore.stateOf(record);
        boolean reindex = CommandStore.REINDEX.equals(record.getString(CommandStore.ACTION));
        long total = record.get(CommandStore.TOTAL, Number.class).longValue();
        long processed = record.get(CommandStore.PROCESSED, Number.class).longValue();
        ObjectNode status = JSON.createObjectNode().put("commandId", commandId)
                .put("action", record.getString(CommandStore.ACTION))
                .put("repository", record.getString(CommandStore.REPOSITORY)).put("state", state.name());
        ObjectNode rangesNode = JSON.createObjectNode();
        if (reindex) {
            CommandRanges.Counts counts = ranges.counts(commandId);
            if (state != State.COMPLETED) {
                processed = Math.max(processed, counts.documents());
            }
            rangesNode.put("total", counts.total()).put("processed", counts.processed()).put("failed", counts.failed());
            ArrayNode failed = rangesNode.putArray("failedRanges");
            ranges.failed(commandId).stream().limit(FAILED_RANGES_SHOWN).forEach(range -> failed.addObject()
                    .put("index", range.index()).put("from", range.from()).put("to", range.to()).put("reason", range.reason()));
        } else {
            Document slices = record.get("slices", Document.class);
            if (slices != null && state != State.COMPLETED) {
                total = slices.values().stream().mapToLong(size -> ((Number) size).longValue()).sum();
            }
            rangesNode.put("total", 0).put("processed", 0).put("failed", 0);
        }
        status.put("total", total).put("processed", processed)
                .put("skipped", record.get(CommandStore.SKIPPED, Number.class).longValue())
                .put("errors", record.get(CommandStore.ERRORS, Number.class).longValue());
        status.set("ranges", rangesNode);
        Date submitted = record.getDate(CommandStore.SUBMITTED);
        Date started = record.getDate(CommandStore.STARTED);
        Date completed = record.getDate(CommandStore.COMPLETED);
        Date emitted = record.getDate(CommandStore.EMITTED);
        status.put("submitted", instant(submitted)).put("started", instant(started)).put("completed", instant(completed));
        if (emitted != null) {
            status.put("emitted", instant(emitted));
        }
        // A bulk command's rate is its job's: selecting and emitting, not the import's wait.
        Instant end = emitted != null ? emitted.toInstant() : completed != null ? completed.toInstant() : Instant.now();
        double seconds = started == null ? 0 : (end.toEpochMilli() - started.getTime()) / 1000.0;
        status.put("docsPerSecond", seconds > 0 ? Math.round(processed / seconds * 10) / 10.0 : 0.0);
        for (String field : List.of(CommandStore.JOB_ID, CommandStore.INDEX, CommandStore.PREVIOUS_INDEX,
                CommandStore.SAVEPOINT, CommandStore.ERROR, CommandStore.SELECTION_READ)) {
            if (record.get(field) != null) {
                status.put(field, record.get(field).toString());
            }
        }
        if (record.get(CommandStore.ROUNDS) instanceof Number rounds) {
            status.put("rounds", rounds.longValue());
        }
        if (record.get(CommandStore.APPLIED) instanceof Number applied) {
            status.put("applied", applied.longValue());
        }
        indexed(record).ifPresent(indexed -> status.put("indexed", indexed));
        if (state == State.RUNNING) {
            throttle(record).ifPresent(throttle -> status.set("throttle", throttle));
        }
        if (state == State.WAITING_FOR_IMPORT) {
            status.put("message", "every change is in the documents topic, and no import's committed offsets on it "
                    + "have moved for " + IMPORT_IDLE.toSeconds() + " s: resume the import (bin/volumizer job resume "
                    + "import, or import-and-index); if one runs, it is held up (a checkpoint that takes longer, another "
                    + "producer's open transaction)");
        }
        for (String field : List.of(CommandStore.QUERY, CommandStore.PARAMS)) {
            if (record.get(field) instanceof Document value) {
                status.set(field, JSON.readTree(value.toJson()));
            }
        }
        return status;
    }

    /**
     * A running command's throttle ({@code bin/volumizer throttle <command id | step>}): the settings its job obeys,
     * its own and its step's, and the rate its source achieves (a minute's mean); empty for a command whose step
     * obeys none (a bulk update's changes obey the import's), or when the control topic cannot be read now.
     */
    private Optional<ObjectNode> throttle(Document record) {
        Step step = step(record);
        String jobId = record.getString(CommandStore.JOB_ID);
        if (!step.throttled() || jobId == null) {
            return Optional.empty();
        }
        List<String> arguments = new ArrayList<>(pipelineArguments);
        arguments.addAll(record.getList(JOB_ARGUMENTS, String.class));
        PipelineStepOptions options = (PipelineStepOptions) step.parse(arguments);
        PipelineOptions pipeline = options.pipeline;
        try {
            Map<String, ThrottleSetting> settings = new ThrottleSettings(kafka, pipeline.registry.url,
                    pipeline.controlTopic(), pipeline.topicSettings).read();
            ObjectNode throttle = JSON.createObjectNode();
            ArrayNode obeyed = throttle.putArray("obeys");
            for (String target : options.throttleTargets(step)) {
                ThrottleSetting setting = settings.get(target);
                if (setting != null) {
                    obeyed.addObject().put("target", target).put("docsPerSecond", setting.getDocsPerSecond())
                            .put("paused", setting.getPaused());
                }
            }
            throttle.put("achievedDocsPerSecond", flink.metricSum(jobId, "", MetricNames.THROTTLE_ACHIEVED));
            return Optional.of(throttle);
        } catch (ExecutionException | TimeoutException | KafkaException | IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Stops the command's job with a savepoint: the command is ABORTED, and can be resumed from there. */
    public ObjectNode abort(String commandId) throws IOException, InterruptedException {
        Document record = refreshed(find(commandId));
        State state = CommandStore.stateOf(record);
        if (!state.isActive() || state.isApplying() || record.getString(CommandStore.JOB_ID) == null) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is "
                    + record.getString(CommandStore.STATE) + ": there is no job to abort");
        }
        String savepoint = jobs.stopWithSavepoint(commandId, record.getString(CommandStore.JOB_ID), SAVEPOINT_TIMEOUT);
        commands.state(commandId, State.ABORTED, Updates.set(CommandStore.SAVEPOINT, savepoint));
        return status(commandId);
    }

    /** Runs an aborted command again from its savepoint: it goes on where it stopped. */
    public ObjectNode resume(String commandId) throws IOException {
        Document record = refreshed(find(commandId));
        if (CommandStore.stateOf(record) != State.ABORTED || record.getString(CommandStore.SAVEPOINT) == null) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is "
                    + record.getString(CommandStore.STATE) + ", not aborted with a savepoint: nothing to resume");
        }
        submit(commandId, step(record), record.getList(JOB_ARGUMENTS, String.class), record.getString(CommandStore.SAVEPOINT));
        return status(commandId);
    }

    /** Reads again the ranges of a reindex that failed, into the same new index; then the reindex finishes. */
    public ObjectNode retry(String commandId) throws IOException {
        Document record = refreshed(find(commandId));
        if (!CommandStore.REINDEX.equals(record.getString(CommandStore.ACTION))) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is a "
                    + record.getString(CommandStore.ACTION) + ": only a reindex has ranges to retry");
        }
        if (CommandStore.stateOf(record) != State.FAILED || ranges.counts(commandId).failed() == 0) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is "
                    + record.getString(CommandStore.STATE) + " with no failed range: nothing to retry");
        }
        // A fault injected into the first run (--fail-range) is not injected into a retry (see the reader).
        List<String> arguments = new ArrayList<>(record.getList(JOB_ARGUMENTS, String.class));
        arguments.add("--retry-failed");
        submit(commandId, Step.REINDEX, arguments, null);
        return status(commandId);
    }

    private Document find(String commandId) {
        return find(commandId, EVERY_RECORD);
    }

    private Document find(String commandId, Predicate<Document> readable) {
        if (commandId == null || !commandId.matches(CommandStepOptions.COMMAND_ID_PATTERN)) {
            throw new CommandRefusedException(Reason.NOT_FOUND, null, "no command " + commandId);
        }
        return commands.find(commandId).filter(readable).orElseThrow(() ->
                new CommandRefusedException(Reason.NOT_FOUND, null, "no command " + commandId));
    }

    /**
     * The record, with the state of a command whose job ended without saying so (it failed for good, or was
     * cancelled from the Web UI) brought up to date from the cluster.
     */
    private Document refreshed(Document record) throws IOException {
        if (CommandStore.stateOf(record).isApplying()) {
            return applying(record);
        }
        String jobId = record.getString(CommandStore.JOB_ID);
        if (!CommandStore.stateOf(record).isActive() || jobId == null) {
            return record;
        }
        String jobState;
        try {
            jobState = flink.state(jobId);
        } catch (IOException | RuntimeException e) {
            return record; // the cluster does not know the job (restarted, or unreachable): the record stands
        }
        String commandId = record.getString(CommandStore.ID);
        if ("FINISHED".equals(jobState) && step(record) == Step.BULK_UPDATE && CommandStore.stateOf(record) == State.RUNNING) {
            emittedEverything(record);
            return commands.find(commandId).map(this::applying).orElseThrow();
        }
        if ("FAILED".equals(jobState)) {
            commands.state(commandId, State.FAILED, Updates.set(CommandStore.ERROR, "job " + jobId + " failed: "
                    + firstLine(flink.exceptions(jobId))));
        } else if ("CANCELED".equals(jobState)) {
            commands.state(commandId, State.ABORTED, Updates.set(CommandStore.ERROR, "job " + jobId + " was cancelled"));
        } else {
            return record;
        }
        return commands.find(commandId).orElseThrow();
    }

    /**
     * How many documents the search engine holds in the version a bulk command's job emitted, once it emitted every
     * change: those its command changed in place (setProperties, setAcl), as indexed when last refreshed; nothing
     * for a delete or a route, whose documents leave the repository's index, nor while the engine cannot answer.
     */
    private OptionalLong indexed(Document record) {
        String action = record.getString(CommandStore.ACTION);
        if (record.get(CommandStore.EMITTED_UNTIL) == null
                || !(BulkUpdateOptions.Action.setProperties.name().equals(action) || SetAclOptions.ACTION.equals(action))) {
            return OptionalLong.empty();
        }
        ObjectNode changedByCommand = JSON.createObjectNode();
        changedByCommand.putObject("term").put(DocumentFields.ORIGIN + "." + DocumentFields.Origin.COMMAND,
                record.getString(CommandStore.ID));
        try {
            return OptionalLong.of(search.reader().count(List.of(indices.of(record.getString(CommandStore.REPOSITORY))),
                    changedByCommand));
        } catch (SearchException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * A bulk command whose job has emitted every change: COMPLETED once one import has read past them all and the
     * documents bearing its change, counted then, are as many after a checkpoint of the import's more (a change the
     * import parked, its parent to be looked up, is written by then); WAITING_FOR_IMPORT once no import's offsets
     * have moved for {@link #IMPORT_IDLE}; APPLYING meanwhile. Each move is made only from the state this read saw,
     * so that two readers, two API replicas, cannot undo each other's; a read that cannot reach Kafka leaves it.
     */
    private Document applying(Document record) {
        String commandId = record.getString(CommandStore.ID);
        EmittedUntil until = EmittedUntil.of(record.get(CommandStore.EMITTED_UNTIL, Document.class));
        ImportProgress progress;
        try {
            progress = ImportProgress.of(kafka, until.topic());
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            return record;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return record;
        }
        Set<State> seenIn = Set.of(CommandStore.stateOf(record));
        Date now = new Date();
        Document seen = record.get(CommandStore.IMPORT_PROGRESS, Document.class);
        boolean moved = seen == null || seen.get(COMMITTED, Number.class).longValue() != progress.total();
        Bson progressNow = Updates.set(CommandStore.IMPORT_PROGRESS, new Document(AT, now).append(COMMITTED, progress.total()));
        if (progress.passed(until.offsets())) {
            long applied = repositories.collection(record.getString(CommandStore.REPOSITORY))
                    .countDocuments(Filters.eq(DocumentFields.ORIGIN + "." + DocumentFields.Origin.COMMAND, commandId));
            Document counted = record.get(CommandStore.APPLIED_SEEN, Document.class);
            if (counted != null && counted.get(COUNT, Number.class).longValue() == applied
                    && counted.get(COMMITTED, Number.class).longValue() != progress.total()) {
                commands.stateIf(commandId, seenIn, State.COMPLETED, Updates.set(CommandStore.APPLIED, applied));
            } else {
                commands.stateIf(commandId, seenIn, State.APPLYING, progressNow, Updates.set(CommandStore.APPLIED_SEEN,
                        new Document(COUNT, applied).append(COMMITTED, progress.total())));
            }
        } else if (moved) {
            commands.stateIf(commandId, seenIn, State.APPLYING, progressNow);
        } else if (now.getTime() - seen.getDate(AT).getTime() >= IMPORT_IDLE.toMillis()
                && CommandStore.stateOf(record) != State.WAITING_FOR_IMPORT) {
            commands.stateIf(commandId, seenIn, State.WAITING_FOR_IMPORT);
        } else {
            return record;
        }
        return commands.find(commandId).orElseThrow();
    }

    /**
     * A bulk command's job that finished without moving its command on (the final checkpoint's notification lost to
     * a failure of its task): every change was committed with that checkpoint, so the topic's end offsets now are past
     * them all.
     */
    private void emittedEverything(Document record) {
        String commandId = record.getString(CommandStore.ID);
        List<String> arguments = new ArrayList<>(pipelineArguments);
        arguments.addAll(record.getList(JOB_ARGUMENTS, String.class));
        try {
            String topic = ((BulkUpdateOptions) Step.BULK_UPDATE.parse(arguments)).pipeline.documentsTopic();
            commands.stateIf(commandId, Set.of(State.RUNNING), State.APPLYING, EmittedUntil.now(kafka, topic).recorded());
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            // Kafka cannot be read now: the next read tries again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void submit(String commandId, Step step, List<String> arguments, String savepoint) throws IOException {
        List<String> all = new ArrayList<>(pipelineArguments);
        all.addAll(arguments);
        try {
            String jobId = jobs.run(commandId, step, all, savepoint);
            commands.set(commandId, Updates.set(CommandStore.JOB_ID, jobId), Updates.set(JOB_ARGUMENTS, arguments));
        } catch (IOException | RuntimeException e) {
            commands.state(commandId, State.FAILED, Updates.set(CommandStore.ERROR, "the job could not be submitted: "
                    + firstLine(String.valueOf(e.getMessage()))));
            throw e;
        }
    }

    private static Step step(Document record) {
        return switch (record.getString(CommandStore.ACTION)) {
            case CommandStore.REINDEX -> Step.REINDEX;
            case SetAclOptions.ACTION -> Step.SET_ACL;
            default -> Step.BULK_UPDATE;
        };
    }

    /** The job's options, checked as the job will check them (a 400 naming the option, not a failed job). */
    private void check(Step step, List<String> arguments) {
        List<String> all = new ArrayList<>(pipelineArguments);
        all.addAll(arguments);
        try {
            step.parse(all);
        } catch (Options.InvalidOptionsException e) {
            throw new CommandRefusedException(Reason.INVALID, null, e.reason());
        }
    }

    /** @throws CommandRefusedException 409 while a command of {@code action} is scheduled or running on the repository */
    private void refuseWhileActive(String repository, String action) throws IOException {
        for (Document active : commands.active(repository, action)) {
            Document current = refreshed(active);
            if (CommandStore.stateOf(current).isActive()) {
                throw new CommandRefusedException(Reason.CONFLICT, null, "a " + action + " of " + repository + " is "
                        + current.getString(CommandStore.STATE).toLowerCase() + ": command " + current.getString(CommandStore.ID));
            }
        }
    }

    private void checkRepository(String repository) {
        if (repository == null || !RepositoryNames.isValid(repository)) {
            throw new CommandRefusedException(Reason.INVALID, "repository", "repository must be " + RepositoryNames.RULE
                    + ", was '" + repository + "'");
        }
        if (repositories.collection(repository).estimatedDocumentCount() == 0) {
            throw new CommandRefusedException(Reason.NOT_FOUND, "repository", "repository " + repository + " has no documents");
        }
    }

    private static String newId(Step step, String repository) {
        return step.commandKind().orElseThrow() + "-" + repository + "-" + ID_TIME.format(Instant.now()) + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String instant(Date date) {
        return date == null ? null : date.toInstant().toString();
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }
}
