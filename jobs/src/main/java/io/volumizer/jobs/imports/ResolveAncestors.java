package io.volumizer.jobs.imports;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import io.volumizer.generators.BlobKey;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.jobs.internal.kafka.RecordDecoder;
import io.volumizer.options.steps.ImportSettings;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.schemas.keys.DocumentVersions;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.mongodb.Ancestry;
import io.volumizer.options.conventions.MetricNames;

/**
 * Decodes documents and resolves their ancestors, keyed by the Kafka record key, which is the parent id: all
 * children of a parent meet here and share one cache entry, the parent's ancestry in keyed state.
 *
 * <p>Records travel the shuffle and wait in state as the bytes Kafka delivered; each is decoded once, when it can
 * be resolved. A record whose key is not its document's parent id breaks the topic's contract (its versions could
 * be applied out of order) and is dead-lettered, as is one that cannot be decoded.
 *
 * <p>On a cache miss the record is parked and the parent is looked up in MongoDB one retry interval later, once for
 * every sibling parked meanwhile. The wait is deliberate: a parent that is new is usually still in flight (in the
 * writer's batch), and an immediate lookup would mostly find nothing and cost a second one. A parent still missing
 * is looked up again at doubling intervals (up to a maximum), never dropped for the time it takes; once the
 * children's time has been read past (below), also after every completed checkpoint, which has written whatever
 * parents were resolved before it.
 *
 * <p>How long a child waits is measured in the import's progress, not the clock: its parent, written before it (the
 * generator, the API and the bulk commands write a parent before its children), must have been read once every
 * partition of the documents topic has been read past the child's time plus a margin, which is when the watermark
 * (per-partition event time, moved by the documents and by the progress marks the import writes) passes the child's
 * timestamp. Then {@code --parent-wait-checkpoints} checkpoints must complete, each writing the parents resolved
 * before it, and only a parent still missing after them makes its children dead letters naming it. A stalled store,
 * a stopped job, a backlog or a slow partition hold the watermark back, so none of them makes a good child look
 * orphaned, however long it lasts. A root needs no lookup, and its ancestry primes the cache for its children.
 *
 * <p>A folder (a document without content) resolved here is also remembered in {@link ResolvedFolders}, shared by
 * this job's import subtasks in the TaskManager: when its first child arrives, in whichever of those subtasks, the
 * child's cache entry is filled from there instead of MongoDB, and the child does not wait. Documents with content
 * are files, which rarely have children: remembered too, they would push the folders out. As for a root, the
 * folder is then trusted before MongoDB has it: its write is in flight in its own subtask's bulk writer, and may land
 * a moment after its children's. Should it be refused, its children are still imported; should the job fail first,
 * both are replayed from the same checkpoint.
 *
 * <p>Each document's effective ACL is computed here too, from its parent's (the cache entry carries it) and the
 * document's own ACL ({@link AclInheritance}); a root's from its own ACL alone; a parent
 * read from MongoDB brings the effective ACL stored with it (none if it was stored before ACLs: its children then
 * inherit nothing).
 *
 * <p>A change made against a version of its parent ({@code parentVersion}: an ACL change's propagation, which
 * recomputes a folder before its children) is resolved against that version or a newer one: with an older one
 * cached, it is parked like a child whose parent is missing, until the resolved folders or MongoDB have that
 * version, which then replaces the cache entry for the siblings that follow.
 *
 * <p>Keyed by record position instead ({@code --partition-by document}, the benchmark's random partitioning), every
 * document looks its parent up and nothing is cached.
 */
public final class ResolveAncestors extends KeyedProcessFunction<String, RawRecord, ImportedEvent>
        implements CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;

    private final RecordDecoder<DocumentEvent> decoder;
    private final ParentLookup lookup;
    private final boolean keyedByParent;
    private final long retryMillis;
    private final long checkMillis;
    private final long maxRetryMillis;
    private final Duration waitMargin;
    private final int waitCheckpoints;
    private final long minWaitMillis;
    private final Duration cacheTtl;
    private final int resolvedFolderCapacity;

    private transient CachedParent cachedParent;
    private transient ParkedRecords parked;
    /** Null when turned off. */
    private transient ResolvedFolders resolvedFolders;
    private transient CheckpointProgress checkpoints;
    private transient ParentLookupMetrics metrics;
    private transient DeadLetters deadLetters;

    /** Keyed by parent unless {@code settings} spread documents by position (a benchmark's baseline). */
    public ResolveAncestors(RecordDecoder.Codec<DocumentEvent> codec, ParentLookup lookup, ImportSettings settings) {
        this.decoder = new RecordDecoder<>(codec);
        this.lookup = lookup;
        this.keyedByParent = settings.partitionBy == ImportSettings.PartitionBy.parent;
        this.retryMillis = settings.parentRetryInterval.toMillis();
        this.checkMillis = Math.min(settings.parentCheckInterval.toMillis(), retryMillis);
        this.maxRetryMillis = settings.parentRetryMaxInterval.toMillis();
        this.waitMargin = settings.parentWaitMargin;
        this.waitCheckpoints = settings.parentWaitCheckpoints;
        this.minWaitMillis = settings.parentWaitMin.toMillis();
        this.cacheTtl = settings.parentCacheTtl;
        this.resolvedFolderCapacity = settings.resolvedFolderCache;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        cachedParent = new CachedParent(getRuntimeContext(), cacheTtl);
        parked = new ParkedRecords(getRuntimeContext());
        metrics = new ParentLookupMetrics(getRuntimeContext().getMetricGroup());
        deadLetters = new DeadLetters(getRuntimeContext().getMetricGroup(), MetricNames.IMPORT);
        if (keyedByParent && resolvedFolderCapacity > 0) {
            resolvedFolders = ResolvedFolders.acquire(getRuntimeContext().getJobInfo().getJobId() + "/"
                    + getRuntimeContext().getTaskInfo().getTaskName(), resolvedFolderCapacity);
        }
        lookup.open(getRuntimeContext());
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        checkpoints = new CheckpointProgress(context.getRestoredCheckpointId().orElse(0));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        checkpoints.barrierPassed(context.getCheckpointId());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        checkpoints.completed(checkpointId);
    }

    @Override
    public void close() throws Exception {
        if (resolvedFolders != null) {
            resolvedFolders.release();
            resolvedFolders = null;
        }
        lookup.close();
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<ImportedEvent> out) throws Exception {
        checkpoints.noteStart(context.timerService().currentProcessingTime());
        Optional<Ancestry> parent = keyedByParent && parked.isEmpty() ? cachedParent(context, 0) : Optional.empty();
        if (parent.isEmpty()) {
            park(record, context);
            return;
        }
        DocumentEvent document = decode(record, context);
        if (document == null) {
            return;
        }
        if (document.getParentId() == null) {
            emitRoot(document, out);
            return;
        }
        if (!satisfies(parent, document)) {
            parent = cachedParent(context, requiredVersion(document));
        }
        if (satisfies(parent, document)) {
            metrics.hit();
            emitChild(document, parent.get(), out);
        } else {
            park(record, context); // made against a newer version of the parent than the cache holds
        }
    }

    /** The least version of its parent a document must be resolved against (0: any). */
    private static long requiredVersion(DocumentEvent document) {
        return document.getParentVersion() == null ? 0 : document.getParentVersion();
    }

    private static boolean satisfies(Optional<Ancestry> parent, DocumentEvent document) {
        return parent.isPresent() && parent.get().isAtLeast(requiredVersion(document));
    }

    /**
     * Event time: the watermark has passed the first parked child's time, and its expiry is set, a few checkpoints
     * ahead (at the end of a bounded input, when no checkpoint follows, the parked records are settled at once).
     * Processing time: the firings of {@link #release}.
     */
    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<ImportedEvent> out) throws Exception {
        if (parked.isEmpty()) {
            return;
        }
        if (context.timeDomain() == TimeDomain.EVENT_TIME) {
            if (context.timerService().currentWatermark() == Long.MAX_VALUE) {
                release(context, out, true);
            } else if (parked.expiresAfter() == null && parked.firstTime() <= context.timerService().currentWatermark()) {
                // Every record read before the watermark passed is before the next barrier; the checkpoints after
                // it write the parents resolved meanwhile, one level of parked folders each.
                parked.expiresAfter(checkpoints.lastBarrier() + waitCheckpoints);
            }
            return;
        }
        // An expiry counted before a restart counts again from the restore: the parents resolved meanwhile were
        // lost with the job (the resolved folders, the writers' batches) and are resolved again from the replay.
        // And never before the least wait, on this subtask's clock: checkpoints may come back to back.
        long now = context.timerService().currentProcessingTime();
        checkpoints.noteStart(now);
        Long expiry = parked.expiresAfter();
        release(context, out, expiry != null && checkpoints.lastCompleted() >= expiry
                && checkpoints.completedSinceStart() >= waitCheckpoints
                && now - Math.max(parked.since(), checkpoints.startedAt()) >= minWaitMillis);
    }

    /**
     * Releases the parked records in order: roots as soon as the records are read, children once their parent is
     * known, which costs at most one lookup per firing. If the parent is still missing, the records from the first
     * child on stay parked, undecoded, until the next firing; once {@code expired}, the children whose time the
     * watermark has passed become dead letters instead.
     *
     * <p>Between lookups, the timer fires every check interval to see whether the job has meanwhile resolved the
     * parent itself (a folder in flight, see {@link ResolvedFolders}), which costs no read, or, for children whose
     * time has been read past, completed a checkpoint since the last lookup, which makes a lookup due; a chain of
     * folders in flight, each parked behind the one above it, is then released a check interval per level.
     */
    private void release(OnTimerContext context, Collector<ImportedEvent> out, boolean expired) throws Exception {
        // Now, not the timer's time: timers restored after a restart fire at once, with the times they were set for.
        long now = context.timerService().currentProcessingTime();
        long watermark = context.timerService().currentWatermark();
        Optional<Ancestry> parent = keyedByParent ? cachedParent(context, 0) : Optional.empty();
        Long lookupAt = parked.nextLookup();
        Long lookedUp = parked.lookedUpAfter();
        // Once the children's time has been read past, after every checkpoint too: each may have written the parent.
        // Not before: at the start of a backlog thousands of keys wait, and a lookup each per checkpoint would flood
        // MongoDB and hold up the very records that resolve them.
        boolean checkpointSinceLookup = parked.expiresAfter() != null
                && (lookedUp == null || checkpoints.lastCompleted() > lookedUp);
        boolean lookupDue = expired || lookupAt == null || now >= lookupAt || checkpointSinceLookup;
        if (parent.isEmpty() && !lookupDue) {
            context.timerService().registerProcessingTimeTimer(nextFiring(now, lookupAt));
            return;
        }
        List<RawRecord> waiting = parked.records();
        boolean lookedUpNow = false;
        for (int i = 0; i < waiting.size(); i++) {
            RawRecord record = waiting.get(i);
            DocumentEvent document = decode(record, context);
            if (document == null) {
                continue;
            }
            if (document.getParentId() == null) {
                Ancestry root = emitRoot(document, out);
                parent = keyedByParent ? Optional.of(root) : parent;
                continue;
            }
            if (!satisfies(parent, document) && keyedByParent) {
                parent = newer(parent, cachedParent(context, requiredVersion(document)));
            }
            if (!satisfies(parent, document) && lookupDue && !lookedUpNow) {
                lookedUpNow = true;
                metrics.lookup(parked.lookedUp(checkpoints.lastCompleted()));
                Optional<Ancestry> found = lookup.find(document.getRepository(), document.getParentId());
                if (keyedByParent && found.isPresent() && (parent.isEmpty() || found.get().isAtLeast(parent.get().version()))) {
                    cachedParent.put(found.get());
                }
                parent = newer(parent, found);
            }
            if (satisfies(parent, document)) {
                metrics.resolvedAfterWait();
                emitChild(document, parent.get(), out);
            } else if (expired && record.timestamp <= watermark) {
                deadLetter(record, ReasonClass.PARENT_NOT_FOUND, "parent " + document.getParentId()
                        + (parent.isPresent() ? " at version " + requiredVersion(document) + " or newer (found "
                        + parent.get().version() + ")" : "") + " not found: every partition was read past this "
                        + "document's time plus " + waitMargin + ", and " + waitCheckpoints + " checkpoints followed", context);
            } else {
                metrics.unparked(i);
                if (expired) {
                    // The children left came later than the watermark: each waits for its own time.
                    parked.clearExpiry();
                    context.timerService().registerEventTimeTimer(record.timestamp);
                }
                keepParked(waiting.subList(i, waiting.size()), now, lookedUpNow, context);
                return;
            }
        }
        metrics.unparked(waiting.size());
        parked.clear();
    }

    /** @param lookedUp whether this firing looked the parent up: the next lookup then backs off */
    private void keepParked(List<RawRecord> stillWaiting, long now, boolean lookedUp, OnTimerContext context) throws Exception {
        parked.keep(stillWaiting);
        long lookupAt;
        if (lookedUp || parked.nextLookup() == null) {
            // Back off: the interval doubles (it is the time waited so far) up to the maximum. A parent still missing
            // after one interval is usually stuck behind backpressure, and lookups every interval would be wasted.
            long waited = now - parked.since();
            lookupAt = now + Math.min(maxRetryMillis, Math.max(retryMillis, waited));
            parked.nextLookup(lookupAt);
        } else {
            lookupAt = parked.nextLookup();
        }
        context.timerService().registerProcessingTimeTimer(nextFiring(now, lookupAt));
    }

    /** The next lookup, or sooner, to check the resolved folders and whether a checkpoint has completed. */
    private long nextFiring(long now, long lookupAt) {
        return Math.min(lookupAt, now + checkMillis);
    }

    private void park(RawRecord record, Context context) throws Exception {
        metrics.parked();
        long now = context.timerService().currentProcessingTime();
        if (parked.add(record, now, now + retryMillis, checkpoints.lastCompleted())) {
            context.timerService().registerProcessingTimeTimer(nextFiring(now, now + retryMillis));
            context.timerService().registerEventTimeTimer(record.timestamp);
        }
    }

    /**
     * The document, or null once it has been dead-lettered: undecodable, keyed by something but its parent, of a
     * repository no store may hold (an index name must be lower case: Elasticsearch would refuse its every write,
     * and the job would restart over it without end), with a generated blob key that does not parse (rendering
     * it, to store the blob or to serve it, would fail every time), or with a version out of range (one at the top
     * would freeze its document: no later write could win over it).
     */
    private DocumentEvent decode(RawRecord record, Context context) throws Exception {
        DocumentEvent document = decoder.decode(record, (reasonClass, reason) -> deadLetter(record, reasonClass, reason, context));
        if (document != null && !RepositoryNames.isValid(document.getRepository())) {
            deadLetter(record, ReasonClass.INVALID_REPOSITORY, "repository '" + document.getRepository() + "' of document "
                    + document.getId() + " is not " + RepositoryNames.RULE, context);
            return null;
        }
        if (document != null && !DocumentVersions.isValid(document.getVersion())) {
            deadLetter(record, ReasonClass.VERSION_OUT_OF_RANGE, "version " + document.getVersion() + " of document "
                    + document.getId() + " is not " + DocumentVersions.RULE, context);
            return null;
        }
        if (document != null && document.getBlob() != null && BlobKey.isGenerated(document.getBlob().getKey())) {
            try {
                BlobKey.parse(document.getBlob().getKey(), document.getRepository());
            } catch (IllegalArgumentException e) {
                deadLetter(record, ReasonClass.INVALID_BLOB_KEY, "document " + document.getId() + ": " + e.getMessage(),
                        context);
                return null;
            }
        }
        if (document != null && keyedByParent && !context.getCurrentKey().equals(DocumentKeys.parentKey(document))) {
            deadLetter(record, ReasonClass.KEY_MISMATCH, "record key '" + context.getCurrentKey()
                    + "' is not the parent id of document " + document.getId() + " ('" + DocumentKeys.parentKey(document)
                    + "'): the documents topic must be keyed by parent id", context);
            return null;
        }
        return document;
    }

    /** A root is its own key: its ancestry is also the cache entry its children need. */
    private Ancestry emitRoot(DocumentEvent document, Collector<ImportedEvent> out) {
        Ancestry root = Ancestry.root(document.getId(), document.getName(), document.getAcl(), document.getVersion());
        if (keyedByParent) {
            cachedParent.put(root);
        }
        out.collect(imported(document, root));
        return root;
    }

    private void emitChild(DocumentEvent document, Ancestry parent, Collector<ImportedEvent> out) {
        Ancestry ancestry = parent.child(document.getId(), document.getName(), document.getAcl(), document.getVersion());
        if (resolvedFolders != null) {
            if (document.getOperation() == Operation.DELETE) {
                resolvedFolders.remove(document.getId());
            } else if (document.getBlob() == null) {
                resolvedFolders.put(document.getId(), ancestry);
            }
        }
        out.collect(imported(document, ancestry));
    }

    private void deadLetter(RawRecord record, ReasonClass reasonClass, String reason, Context context) {
        context.output(DeadLetters.TAG, record.deadLetter(deadLetters.letter(reasonClass, reason)));
    }

    /**
     * The cache entry of the current key (the parent), filled from the resolved folders if it has none, or if it is
     * older than {@code version} and they hold that version or a newer one.
     */
    private Optional<Ancestry> cachedParent(Context context, long version) throws Exception {
        Optional<Ancestry> cached = cachedParent.get();
        if (cached.isPresent() && cached.get().isAtLeast(version)) {
            return cached;
        }
        Optional<Ancestry> folder = resolvedFolders == null ? Optional.empty() : resolvedFolders.get(context.getCurrentKey());
        if (folder.isPresent() && (cached.isEmpty() || folder.get().version() > cached.get().version())) {
            metrics.folderHit();
            cachedParent.put(folder.get());
            return folder;
        }
        return cached;
    }

    /** The newer of two ancestries of the same parent. */
    private static Optional<Ancestry> newer(Optional<Ancestry> one, Optional<Ancestry> other) {
        if (one.isEmpty()) {
            return other;
        }
        return other.isPresent() && other.get().version() > one.get().version() ? other : one;
    }

    private static ImportedEvent imported(DocumentEvent document, Ancestry ancestry) {
        return ImportedEvent.newBuilder().setDocument(document).setAncestorIds(new ArrayList<>(ancestry.ancestorIds()))
                .setPath(ancestry.path()).setImportedAt(Instant.now()).setEffectiveAcl(ancestry.acl()).build();
    }
}
