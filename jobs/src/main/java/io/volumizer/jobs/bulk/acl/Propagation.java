package io.volumizer.jobs.bulk.acl;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
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
 * a round reads the folder's subtree from MongoDB (one scan of its descendants, a bounded piece per step, only the
 * fields that decide), works out top down what each document's effective ACL must be from its parent's
 * ({@link AclInheritance}, as the import does), and sends again (its next version, nothing else changed, read whole
 * by id) each document whose stored one differs. Each such event names the version its parent has once this
 * round's change of it is applied ({@code parentVersion}): the import resolves it against that version or a newer
 * one, never a stale cache entry, so a level is recomputed from the level above as it now is, whatever order the
 * events arrive in. The round ends when the import has applied every event it sent.
 *
 * <p>Documents created below the folder while it ran were resolved by the import against whatever it had cached
 * then: the next round finds those that came out wrong, and sends them again. The command is done after a round
 * that finds nothing to change: every document then holds the effective ACL the folder's new ACL gives it, and the
 * import's cache entries of the folders that changed have been replaced. Rounds are worked out from MongoDB alone,
 * so after a restart one simply starts again, and finds done what was done. A round holds the decisive fields of
 * the subtree in memory (a few hundred bytes a document): millions of documents, not billions.
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

        /** Documents as stored, those of these ids that exist. */
        List<Document> find(List<String> ids);

        /**
         * The live (not deleted) documents below a folder, with the fields that decide: id, parent id, version, own
         * ACL, effective ACL, blob (whether it is a file).
         */
        Iterator<Document> below(String folderId);

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

    private enum Phase { CHANGE_FOLDER, WAIT, READ, SEND, DONE }

    /** A document of the subtree, as a round decides on it. */
    private record Entry(String id, String parentId, int depth, long version, Acl own, EffectiveAcl stored, boolean folder) {
    }

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
    /** This round's scan of the subtree, and what it read. */
    private Iterator<Document> scan;
    private final List<Entry> entries = new ArrayList<>();
    /** This round's changes still to send: each document and the version its parent has after the round. */
    private final Map<String, Long> toSend = new LinkedHashMap<>();
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
            case READ -> read();
            case SEND -> sendChanges(send);
            case DONE -> Step.DONE;
        };
    }

    int round() {
        return round;
    }

    private Step changeFolder(Consumer<DocumentEvent> send) {
        Document folder = live(folderId);
        if (!BulkOrigin.changedBy(folder, commandId)) {
            DocumentEvent current = MongoDocumentStore.toEvent(folder, Operation.UPDATE);
            send.accept(next(current).setAcl(acl).build());
            pending.put(folderId, current.getVersion() + 1);
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
        round++;
        entries.clear();
        scan = subtree.below(folderId);
        phase = Phase.READ;
        return Step.WORKED;
    }

    /** Reads a piece of the subtree; once it is all read, decides what the round changes. */
    private Step read() {
        for (int i = 0; i < batchSize * 10 && scan.hasNext(); i++) {
            Document stored = scan.next();
            List<String> ancestors = stored.getList(DocumentFields.ANCESTOR_IDS, String.class);
            entries.add(new Entry(stored.getString(DocumentFields.KEY), stored.getString(DocumentFields.PARENT_ID),
                    ancestors == null ? 0 : ancestors.size(), stored.get(DocumentFields.VERSION, Number.class).longValue(),
                    MongoDocumentStore.ownAcl(stored), MongoDocumentStore.effectiveAcl(stored),
                    stored.get(DocumentFields.BLOB) == null));
        }
        if (scan.hasNext()) {
            return Step.WORKED;
        }
        scan = null;
        decide();
        return Step.WORKED;
    }

    /** Top down, a level at a time: what each document's effective ACL must be, and which ones differ. */
    private void decide() {
        Document folder = live(folderId);
        Map<String, EffectiveAcl> mustHave = new HashMap<>();
        Map<String, Long> versionAfter = new HashMap<>();
        mustHave.put(folderId, MongoDocumentStore.effectiveAcl(folder));
        versionAfter.put(folderId, folder.get(DocumentFields.VERSION, Number.class).longValue());
        entries.sort(Comparator.comparingInt(Entry::depth));
        changedThisRound = 0;
        for (Entry entry : entries) {
            EffectiveAcl parent = mustHave.get(entry.parentId());
            if (parent == null) {
                continue; // its parent is not in the subtree as read (deleted meanwhile): it is the next round's
            }
            EffectiveAcl must = AclInheritance.effective(parent, entry.own());
            long version = entry.version();
            if (!must.equals(entry.stored())) {
                toSend.put(entry.id(), versionAfter.get(entry.parentId()));
                version++;
                changedThisRound++;
            }
            if (entry.folder()) {
                mustHave.put(entry.id(), must);
                versionAfter.put(entry.id(), version);
            }
        }
        total = Math.max(total, entries.size());
        if (unchanged < 0) {
            unchanged = entries.size() - changedThisRound;
        }
        entries.clear();
        phase = Phase.SEND;
    }

    /** Sends a batch of the round's changes, each read whole by id; after the last, waits for them to be applied. */
    private Step sendChanges(Consumer<DocumentEvent> send) {
        List<String> ids = new ArrayList<>(batchSize);
        for (Iterator<String> it = toSend.keySet().iterator(); it.hasNext() && ids.size() < batchSize; ) {
            ids.add(it.next());
        }
        Map<String, Document> stored = new HashMap<>();
        subtree.find(ids).forEach(document -> stored.put(document.getString(DocumentFields.KEY), document));
        for (String id : ids) {
            long parentVersion = toSend.remove(id);
            Document document = stored.get(id);
            if (document == null || MongoDocumentStore.isTombstone(document)) {
                continue; // deleted since it was read
            }
            DocumentEvent current = MongoDocumentStore.toEvent(document, Operation.UPDATE);
            send.accept(next(current).setParentVersion(parentVersion).build());
            pending.put(id, current.getVersion() + 1);
        }
        if (!toSend.isEmpty()) {
            return Step.WORKED;
        }
        if (changedThisRound == 0) {
            phase = Phase.DONE;
            progress.report(total, changed, unchanged, true);
            return Step.DONE;
        }
        phase = Phase.WAIT;
        return Step.WORKED;
    }

    /** The document's next version, made by this command. */
    private DocumentEvent.Builder next(DocumentEvent current) {
        return DocumentEvent.newBuilder(current).setVersion(current.getVersion() + 1).setEventTime(commandTime)
                .setOrigin(BulkOrigin.of(commandId));
    }

    private Document live(String id) {
        return subtree.find(id).filter(stored -> !MongoDocumentStore.isTombstone(stored)).orElseThrow(() ->
                new IllegalStateException("folder " + id + " is not in the repository (deleted since the command was given?)"));
    }
}
