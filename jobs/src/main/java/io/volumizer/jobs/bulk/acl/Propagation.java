package io.volumizer.jobs.bulk.acl;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.bson.Document;

import io.volumizer.jobs.bulk.BulkOrigin;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.Operation;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.mongodb.MongoDocumentStore;

/**
 * A folder's new ACL, carried down to every document below it, as events the import applies like any other.
 *
 * <p>First the folder itself changes (an event with its new ACL). Once the import has applied it, rounds follow:
 * a round reads the folder's subtree from MongoDB top down, a level at a time, computes what each document's
 * effective ACL must be from its parent's ({@link AclInheritance}, as the import does), and sends the document again
 * (its next version, nothing else changed) where the stored one differs. Each such event names the version its
 * parent has once this round's change of it is applied ({@code parentVersion}): the import resolves it against that
 * version or a newer one, never a stale cache entry, so a level is recomputed from the level above as it now is,
 * whatever order the events arrive in. The round ends when the import has applied every event it sent.
 *
 * <p>Documents created below the folder while it ran were resolved by the import against whatever it had cached
 * then: the next round finds those that came out wrong, and sends them again. The command is done after a round
 * that finds nothing to change: every document then holds the effective ACL the folder's new ACL gives it, and the
 * import's cache entries of the folders that changed have been replaced. Rounds are worked out from MongoDB alone,
 * so after a restart one simply starts again, and finds done what was done.
 */
final class Propagation {

    /** What a call of {@link #step} did. */
    enum Step {
        /** Some work; call again at once. */
        WORKED,
        /** Waiting for the import to apply what was sent; call again after a while. */
        WAITING,
        /** Every document holds the effective ACL it must. */
        DONE
    }

    /** The repository's documents in MongoDB, as the propagation reads them. */
    interface Subtree {
        /** A document as stored (a tombstone included), if there is one. */
        Optional<Document> find(String id);

        /** The live (not deleted) children of these documents. */
        List<Document> children(List<String> parentIds);

        /** The stored versions of those of these documents that exist. */
        Map<String, Long> versions(List<String> ids);
    }

    /** Where the counts go: the command's record. */
    interface Progress {
        /**
         * @param total     documents below the folder, as of the last round read
         * @param changed   documents sent again and applied, over all rounds
         * @param unchanged documents the first round found right already (below a block, for one)
         */
        void report(long total, long changed, long unchanged, boolean done);
    }

    private enum Phase { CHANGE_FOLDER, WAIT, READ, DONE }

    private final String folderId;
    private final Acl acl;
    private final String commandId;
    private final Instant commandTime;
    private final int batchSize;
    private final Subtree subtree;
    private final Progress progress;

    private Phase phase = Phase.CHANGE_FOLDER;
    private int round;
    /** What was sent and not yet seen applied: each document's version after the change. */
    private final Map<String, Long> pending = new LinkedHashMap<>();
    /** The folders of this round still to read the children of. */
    private final ArrayDeque<String> toRead = new ArrayDeque<>();
    /** Per folder read or to read this round: its effective ACL as it must be, and its version once changed. */
    private final Map<String, EffectiveAcl> mustHave = new HashMap<>();
    private final Map<String, Long> versionAfter = new HashMap<>();
    private long seen;
    private long changedThisRound;
    private long total;
    private long changed;
    private long unchanged = -1;

    Propagation(String folderId, Acl acl, String commandId, Instant commandTime, int batchSize, Subtree subtree,
            Progress progress) {
        this.folderId = folderId;
        this.acl = acl;
        this.commandId = commandId;
        this.commandTime = commandTime;
        this.batchSize = batchSize;
        this.subtree = subtree;
        this.progress = progress;
    }

    /** Does a bounded piece of the work, sending what it changes to {@code send}. */
    Step step(Consumer<DocumentEvent> send) {
        return switch (phase) {
            case CHANGE_FOLDER -> changeFolder(send);
            case WAIT -> awaitApplied();
            case READ -> readChildren(send);
            case DONE -> Step.DONE;
        };
    }

    int round() {
        return round;
    }

    private Step changeFolder(Consumer<DocumentEvent> send) {
        Document folder = live(folderId);
        if (!BulkOrigin.changedBy(folder, commandId)) {
            send(MongoDocumentStore.toEvent(folder, Operation.UPDATE), send, builder -> builder.setAcl(acl));
        }
        phase = Phase.WAIT;
        return Step.WORKED;
    }

    private Step awaitApplied() {
        List<String> ids = new ArrayList<>(batchSize);
        for (Iterator<String> it = pending.keySet().iterator(); it.hasNext() && ids.size() < batchSize; ) {
            ids.add(it.next());
        }
        Map<String, Long> stored = subtree.versions(ids);
        long applied = 0;
        for (String id : ids) {
            Long version = stored.get(id);
            if (version == null || version >= pending.get(id)) { // applied, or a newer change (or it is gone)
                pending.remove(id);
                applied++;
            }
        }
        if (round > 0) {
            changed += applied;
        }
        if (!pending.isEmpty()) {
            return applied > 0 ? Step.WORKED : Step.WAITING;
        }
        if (round > 0) {
            progress.report(total, changed, unchanged, false);
        }
        startRound();
        return Step.WORKED;
    }

    private void startRound() {
        Document folder = live(folderId);
        round++;
        seen = 0;
        changedThisRound = 0;
        mustHave.clear();
        versionAfter.clear();
        toRead.clear();
        mustHave.put(folderId, MongoDocumentStore.effectiveAcl(folder));
        versionAfter.put(folderId, folder.get(DocumentFields.VERSION, Number.class).longValue());
        toRead.add(folderId);
        phase = Phase.READ;
    }

    private Step readChildren(Consumer<DocumentEvent> send) {
        List<String> parents = new ArrayList<>(batchSize);
        while (!toRead.isEmpty() && parents.size() < batchSize) {
            parents.add(toRead.poll());
        }
        for (Document child : subtree.children(parents)) {
            DocumentEvent document = MongoDocumentStore.toEvent(child, Operation.UPDATE);
            String parentId = document.getParentId();
            EffectiveAcl must = AclInheritance.effective(mustHave.get(parentId), document.getAcl());
            long version = document.getVersion();
            seen++;
            if (!must.equals(MongoDocumentStore.effectiveAcl(child))) {
                version = send(document, send, builder -> builder.setParentVersion(versionAfter.get(parentId)));
                changedThisRound++;
            }
            if (document.getBlob() == null) { // a folder: its children come in the next level
                toRead.add(document.getId());
                mustHave.put(document.getId(), must);
                versionAfter.put(document.getId(), version);
            }
        }
        for (String parent : parents) {
            mustHave.remove(parent);
            versionAfter.remove(parent);
        }
        if (!toRead.isEmpty()) {
            return Step.WORKED;
        }
        total = Math.max(total, seen);
        if (unchanged < 0) {
            unchanged = seen - changedThisRound;
        }
        if (changedThisRound == 0) {
            phase = Phase.DONE;
            progress.report(total, changed, unchanged, true);
            return Step.DONE;
        }
        phase = Phase.WAIT;
        return Step.WORKED;
    }

    /** Sends the document's next version, made by this command; returns that version. */
    private long send(DocumentEvent current, Consumer<DocumentEvent> send, Consumer<DocumentEvent.Builder> change) {
        long next = current.getVersion() + 1;
        DocumentEvent.Builder builder = DocumentEvent.newBuilder(current).setVersion(next).setEventTime(commandTime)
                .setOrigin(BulkOrigin.of(commandId));
        change.accept(builder);
        send.accept(builder.build());
        pending.put(current.getId(), next);
        return next;
    }

    private Document live(String id) {
        return subtree.find(id).filter(stored -> !MongoDocumentStore.isTombstone(stored)).orElseThrow(() ->
                new IllegalStateException("folder " + id + " is not in the repository (deleted since the command was given?)"));
    }
}
