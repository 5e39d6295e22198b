package io.volumizer.jobs.bulk.acl;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.bson.conversions.Bson;

import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Updates;

import io.volumizer.sinks.mongodb.MongoDriverRelease;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.AclJson;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.mongodb.MongoRepositories;

/**
 * Works the propagation a bounded step per poll; while it waits for the import, it answers nothing available and
 * is polled again an interval later, so checkpoints and savepoints pass between the steps. Its counts go to the
 * command's record; after the round that changed nothing, the command is COMPLETED: applied, and checked.
 */
final class PropagationReader implements SourceReader<DocumentEvent, PropagationSource.Split> {

    private static final Logger LOG = LoggerFactory.getLogger(PropagationReader.class);

    private final SetAclSettings settings;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "set-acl-wait");
        thread.setDaemon(true);
        return thread;
    });
    private MongoRepositories repositories;
    private PropagationSource.Split split;
    private Propagation propagation;
    private boolean noMoreSplits;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    PropagationReader(SetAclSettings settings) {
        this.settings = settings;
    }

    @Override
    public void start() {
    }

    @Override
    public InputStatus pollNext(ReaderOutput<DocumentEvent> output) {
        if (propagation == null) {
            return noMoreSplits ? InputStatus.END_OF_INPUT : nothingUntilNotified();
        }
        switch (propagation.step(output::collect)) {
            case WORKED:
                return InputStatus.MORE_AVAILABLE;
            case WAITING:
                available = new CompletableFuture<>();
                CompletableFuture<Void> later = available;
                timer.schedule(() -> later.complete(null), SetAclSettings.APPLIED_CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
                return InputStatus.NOTHING_AVAILABLE;
            default:
                LOG.info("setAcl {}: every document below {} holds its effective ACL, after {} round(s)",
                        settings.commandId(), settings.folderId(), propagation.round());
                propagation = null;
                split = null;
                return noMoreSplits ? InputStatus.END_OF_INPUT : nothingUntilNotified();
        }
    }

    private InputStatus nothingUntilNotified() {
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public List<PropagationSource.Split> snapshotState(long checkpointId) {
        return split == null ? List.of() : List.of(split);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<PropagationSource.Split> splits) {
        split = splits.get(0);
        repositories = new MongoRepositories(settings.databases(), MongoClients::create);
        CommandStore commands = new CommandStore(repositories.shared());
        propagation = new Propagation(settings.folderId(), AclJson.read(settings.aclJson(), "acl"), settings.commandId(),
                settings.commandTime(), SetAclSettings.READ_BATCH, new MongoSubtree(repositories.collection(settings.repository()),
                settings.backoff()), (total, changed, unchanged, done) -> record(commands, total, changed, unchanged, done));
        available.complete(null);
    }

    private void record(CommandStore commands, long total, long changed, long unchanged, boolean done) {
        Bson[] counts = {Updates.set(CommandStore.TOTAL, total), Updates.set(CommandStore.PROCESSED, changed),
            Updates.set(CommandStore.SKIPPED, unchanged), Updates.set(CommandStore.ROUNDS, propagation.round())};
        if (done) {
            commands.state(settings.commandId(), CommandStore.State.COMPLETED, counts);
        } else {
            commands.set(settings.commandId(), counts);
        }
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        if (repositories != null) {
            repositories.close();
        }
        MongoDriverRelease.stopBufferPoolPruner();
    }
}
