package io.volumizer.api.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;

import org.bson.Document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;

import io.volumizer.api.commands.CommandRefusedException.Reason;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.options.steps.SetAclOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandRanges;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.commands.CommandStore.State;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;

/**
 * Long-running commands on a repository, each a Flink job on the session cluster: a reindex, a bulk update or
 * delete, a folder's ACL change (setAcl). Requests are checked before anything runs ({@link CommandRequests}); each
 * command gets a record ({@link CommandStore}) that its job writes progress to, so its status is read from the
 * stores ({@link CommandStatus}), whoever asks (the API, the CLI) and whether or not they started it, and a
 * {@link CommandReconciler} brings it up to date where the job cannot. A command can be aborted (its job stopped with
 * a savepoint), resumed from that savepoint, and a reindex whose ranges failed can read those again.
 */
public final class Commands {

    private static final Duration SAVEPOINT_TIMEOUT = Duration.ofMinutes(5);
    /** What an operator, and a write (which needs the API's token), may read of the commands' records. */
    private static final Predicate<Document> EVERY_RECORD = record -> true;

    private final CommandJobs jobs;
    private final MongoRepositories repositories;
    private final JobArguments jobArguments;
    private final CommandStore commands;
    private final CommandRanges ranges;
    private final CommandStatus status;
    private final CommandReconciler reconciler;

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
        this.jobs = jobs;
        this.repositories = repositories;
        this.jobArguments = new JobArguments(pipelineArguments);
        this.commands = new CommandStore(repositories.shared());
        this.ranges = new CommandRanges(repositories.shared());
        this.status = new CommandStatus(flink, commands, ranges, search, indices, kafka, jobArguments);
        this.reconciler = new CommandReconciler(flink, commands, repositories, kafka, jobArguments);
    }

    /** Commands whose jobs are submitted through the session cluster's REST API, from {@code jobsJar}. */
    public Commands(FlinkSessionClient flink, Path jobsJar, MongoRepositories repositories, SearchEngine search,
            IndexNames indices, List<String> pipelineArguments, Properties kafka) {
        this(flink, new RestCommandJobs(flink, jobsJar), repositories, search, indices, pipelineArguments, kafka);
    }

    /** What keeps the commands' records up to date: whoever runs commands runs it on a schedule. */
    public CommandReconciler reconciler() {
        return reconciler;
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
        String commandId = CommandRequests.newId(Step.REINDEX, repository);
        return start(commandId, Step.REINDEX, CommandStore.REINDEX, repository,
                CommandRequests.reindex(repository, commandId, options), new Document());
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
        CommandRequests.Bulk bulk = CommandRequests.Bulk.of(repository, action, filters, all, properties);
        checkRepository(repository);
        String commandId = CommandRequests.newId(Step.BULK_UPDATE, repository);
        return start(commandId, Step.BULK_UPDATE, bulk.action().name(), repository,
                bulk.arguments(repository, commandId), bulk.recorded());
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
        CommandRequests.SetAcl setAcl = CommandRequests.SetAcl.of(documentId, acl);
        checkRepository(repository);
        Document folder = repositories.collection(repository).find(Filters.eq(DocumentFields.KEY, documentId)).first();
        if (folder == null || MongoDocumentStore.isTombstone(folder)) {
            throw new CommandRefusedException(Reason.NOT_FOUND, "params.document", "no document " + documentId + " in " + repository);
        }
        refuseWhileActive(repository, SetAclOptions.ACTION);
        String commandId = CommandRequests.newId(Step.SET_ACL, repository);
        return start(commandId, Step.SET_ACL, SetAclOptions.ACTION, repository, setAcl.arguments(repository, commandId),
                setAcl.recorded());
    }

    /** The command's status as the API answers it (see the OpenAPI description), to an operator: any command. */
    public ObjectNode status(String commandId) throws IOException {
        return status(commandId, EVERY_RECORD);
    }

    /**
     * The command's status, to a caller that may read the records {@code readable} accepts: others are not found.
     * It is the record as it stands: reading it changes nothing.
     */
    public ObjectNode status(String commandId, Predicate<Document> readable) throws IOException {
        return status.of(status.find(commandId, readable));
    }

    /** Stops the command's job with a savepoint: the command is ABORTED, and can be resumed from there. */
    public ObjectNode abort(String commandId) throws IOException, InterruptedException {
        Document record = current(commandId);
        State state = CommandStore.stateOf(record);
        if (!state.isActive() || state.isApplying() || record.getString(CommandStore.JOB_ID) == null) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is "
                    + record.getString(CommandStore.STATE) + ": there is no job to abort");
        }
        String savepoint = jobs.stopWithSavepoint(commandId, record.getString(CommandStore.JOB_ID), SAVEPOINT_TIMEOUT);
        commands.state(commandId, State.ABORTED, Updates.set(CommandStore.SAVEPOINT, savepoint));
        return status(commandId);
    }

    /** The newest reindex of {@code repository} aborted with a savepoint: {@link #resume} goes on with it. */
    public Optional<String> abortedReindex(String repository) {
        return commands.newest(repository, CommandStore.REINDEX, State.ABORTED)
                .filter(record -> record.getString(CommandStore.SAVEPOINT) != null)
                .map(record -> record.getString(CommandStore.ID));
    }

    /** Runs an aborted command again from its savepoint: it goes on where it stopped. */
    public ObjectNode resume(String commandId) throws IOException {
        Document record = current(commandId);
        if (CommandStore.stateOf(record) != State.ABORTED || record.getString(CommandStore.SAVEPOINT) == null) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is "
                    + record.getString(CommandStore.STATE) + ", not aborted with a savepoint: nothing to resume");
        }
        submit(commandId, JobArguments.step(record), JobArguments.of(record), record.getString(CommandStore.SAVEPOINT));
        return status(commandId);
    }

    /** Reads again the ranges of a reindex that failed, into the same new index; then the reindex finishes. */
    public ObjectNode retry(String commandId) throws IOException {
        Document record = current(commandId);
        if (!CommandStore.REINDEX.equals(record.getString(CommandStore.ACTION))) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is a "
                    + record.getString(CommandStore.ACTION) + ": only a reindex has ranges to retry");
        }
        if (CommandStore.stateOf(record) != State.FAILED || ranges.counts(commandId).failed() == 0) {
            throw new CommandRefusedException(Reason.CONFLICT, null, "command " + commandId + " is "
                    + record.getString(CommandStore.STATE) + " with no failed range: nothing to retry");
        }
        // A fault injected into the first run (--fail-range) is not injected into a retry (see the reader).
        List<String> arguments = new ArrayList<>(JobArguments.of(record));
        arguments.add("--retry-failed");
        submit(commandId, Step.REINDEX, arguments, null);
        return status(commandId);
    }

    /** The command's record, reconciled: what is done to a command is decided on its state now. */
    private Document current(String commandId) throws IOException {
        return reconciler.reconcile(status.find(commandId, EVERY_RECORD));
    }

    /** Records a command, SCHEDULED, with its job's arguments and {@code request}, then submits its job. */
    private String start(String commandId, Step step, String action, String repository, List<String> arguments,
            Document request) throws IOException {
        jobArguments.check(step, arguments);
        Document recorded = new Document(JobArguments.FIELD, arguments);
        recorded.putAll(request);
        commands.createIfAbsent(commandId, action, repository, recorded);
        submit(commandId, step, arguments, null);
        return commandId;
    }

    private void submit(String commandId, Step step, List<String> arguments, String savepoint) throws IOException {
        try {
            String jobId = jobs.run(commandId, step, jobArguments.with(arguments), savepoint);
            commands.set(commandId, Updates.set(CommandStore.JOB_ID, jobId), Updates.set(JobArguments.FIELD, arguments));
        } catch (IOException | RuntimeException e) {
            commands.state(commandId, State.FAILED, Updates.set(CommandStore.ERROR, "the job could not be submitted: "
                    + CommandReconciler.firstLine(String.valueOf(e.getMessage()))));
            throw e;
        }
    }

    /** @throws CommandRefusedException 409 while a command of {@code action} is scheduled or running on the repository */
    private void refuseWhileActive(String repository, String action) throws IOException {
        for (Document active : commands.active(repository, action)) {
            Document current = reconciler.reconcile(active);
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
}
