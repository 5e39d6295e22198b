package io.volumizer.api.commands;

import java.io.IOException;
import java.time.Duration;
import java.util.Date;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.common.KafkaException;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.commands.CommandStore.State;
import io.volumizer.stores.commands.EmittedUntil;
import io.volumizer.stores.mongodb.MongoRepositories;

/**
 * Brings the records of commands up to date with what their record cannot say by itself: a job that ended without
 * saying so (it failed for good, or was cancelled from the Web UI), and a bulk command's changes, emitted by its job,
 * as the imports apply them. It runs on a schedule of its own ({@link #reconcilingActive()} in the API server,
 * {@link #reconciling(String)} in a CLI that follows a command), and before a command is acted on; never in a status
 * read. Several may run at once (API replicas, a CLI): each move is made only from the state its round saw.
 */
public final class CommandReconciler {

    /** How often a schedule reconciles: a job that ended shows in a status read about this soon after. */
    public static final Duration PERIOD = Duration.ofSeconds(1);
    /** How long closing a schedule waits for the round under way: Kafka's reads time out sooner. */
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(CommandReconciler.class);
    /** Fields of the imports' progress and of the applied count as a round saw them. */
    private static final String AT = "at";
    private static final String COMMITTED = "committed";
    private static final String COUNT = "count";

    private final FlinkSessionClient flink;
    private final CommandStore commands;
    private final MongoRepositories repositories;
    private final Properties kafka;
    private final JobArguments jobArguments;

    CommandReconciler(FlinkSessionClient flink, CommandStore commands, MongoRepositories repositories,
            Properties kafka, JobArguments jobArguments) {
        this.flink = flink;
        this.commands = commands;
        this.repositories = repositories;
        this.kafka = kafka;
        this.jobArguments = jobArguments;
    }

    /** Reconciles every command that has not ended, each on its own: one that cannot be brought up to date now waits. */
    public void reconcileActive() {
        for (Document record : commands.unfinished()) {
            try {
                reconcile(record);
            } catch (IOException | RuntimeException e) {
                LOG.warn("reconciling command {}: {}", record.getString(CommandStore.ID), e.toString());
            }
        }
    }

    /** Reconciles one command, if it has a record. */
    public void reconcile(String commandId) throws IOException {
        Document record = commands.find(commandId).orElse(null);
        if (record != null) {
            reconcile(record);
        }
    }

    /**
     * The record, with the state of a command whose job ended without saying so brought up to date from the cluster,
     * or that of a bulk command's changes from the imports' progress.
     */
    Document reconcile(Document record) throws IOException {
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
        if ("FINISHED".equals(jobState) && JobArguments.step(record) == Step.BULK_UPDATE
                && CommandStore.stateOf(record) == State.RUNNING) {
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
     * A bulk command whose job has emitted every change: COMPLETED once one import has read past them all and the
     * documents bearing its change, counted then, are as many after a checkpoint of the import's more (a change the
     * import parked, its parent to be looked up, is written by then); WAITING_FOR_IMPORT once no import's offsets
     * have moved for {@link ImportProgress#IDLE}; APPLYING meanwhile. Each move is made only from the state this round saw,
     * so that two reconcilers, two API replicas, cannot undo each other's; a round that cannot reach Kafka leaves it.
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
        } else if (now.getTime() - seen.getDate(AT).getTime() >= ImportProgress.IDLE.toMillis()
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
        try {
            String topic = ((BulkUpdateOptions) jobArguments.options(record)).pipeline.documentsTopic();
            commands.stateIf(commandId, Set.of(State.RUNNING), State.APPLYING, EmittedUntil.now(kafka, topic).recorded());
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            // Kafka cannot be read now: the next round tries again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first line of {@code text}: what a record's error keeps of a job's exception or a refusal. */
    static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /** Reconciles every command that has not ended, every {@link #PERIOD}, until closed: the API server's. */
    public Schedule reconcilingActive() {
        return new Schedule("the unfinished commands", this::reconcileActive);
    }

    /** Reconciles {@code commandId} every {@link #PERIOD} until closed: a CLI's while it follows the command. */
    public Schedule reconciling(String commandId) {
        return new Schedule("command " + commandId, () -> reconcile(commandId));
    }

    /** One round of reconciliation. */
    @FunctionalInterface
    private interface Round {
        void run() throws IOException;
    }

    /** Rounds of reconciliation on a thread of their own, one after the other, {@link #PERIOD} apart (the first too). */
    public static final class Schedule implements AutoCloseable {

        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(round -> {
            Thread thread = new Thread(round, "command-reconciler");
            thread.setDaemon(true);
            return thread;
        });

        private Schedule(String what, Round round) {
            // A round that fails is logged, not thrown: an executor runs no more rounds of a task that threw.
            executor.scheduleWithFixedDelay(() -> {
                try {
                    round.run();
                } catch (IOException | RuntimeException e) {
                    LOG.warn("reconciling {}: {}", what, e.toString());
                }
            }, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** Stops the rounds, once the one under way (if any) has written what it decided. */
        @Override
        public void close() {
            executor.shutdown();
            try {
                if (!executor.awaitTermination(ROUND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                executor.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
