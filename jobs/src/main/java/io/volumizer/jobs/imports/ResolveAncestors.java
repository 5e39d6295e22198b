package io.volumizer.jobs.imports;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.jobs.internal.kafka.RawRecord;
import io.volumizer.jobs.internal.kafka.RecordDecoder;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.sinks.mongodb.Ancestry;

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
 * is looked up again at doubling intervals (up to a maximum), never dropped; past the configured wait its children
 * become dead letters naming it. A root needs no lookup, and its ancestry primes the cache for its children.
 *
 * <p>A document resolved here whose own children are keyed to this same subtask is also remembered, in a bounded
 * map outside Flink state: when its first child arrives, the child's cache entry is filled from that map instead
 * of MongoDB, and the child does not wait. That is safe because the parent is ahead of the child in this subtask's
 * bulk writer (same batch or an earlier one), and after a restore the map is simply empty. As for a root, the parent
 * is then trusted before MongoDB has it: should its write be refused, its children are still imported. With
 * parallelism p, about one parent in p is remembered this way.
 *
 * <p>Keyed by record position instead ({@code keyedByParent = false}, the benchmark's random partitioning), every
 * document looks its parent up and nothing is cached.
 */
public final class ResolveAncestors extends KeyedProcessFunction<String, RawRecord, ImportedEvent> {

    private static final long serialVersionUID = 1L;
    public static final String STAGE = "import";

    private final RecordDecoder<DocumentEvent> decoder;
    private final ParentLookup lookup;
    private final boolean keyedByParent;
    private final long retryMillis;
    private final long maxRetryMillis;
    private final long maxWaitMillis;
    private final Duration cacheTtl;
    private final int localParents;

    private transient ValueState<List<String>> parentIds;
    private transient ValueState<String> parentPath;
    /** Parked records in {@link RawRecord#toBytes()} form: cheap to snapshot at every checkpoint. */
    private transient ListState<byte[]> parked;
    private transient ValueState<Long> parkedSince;
    /** Ancestries of documents resolved here whose children are keyed to this subtask, least recently used out. */
    private transient Map<String, Ancestry> resolvedHere;
    private transient TaskInfo task;
    private transient Counter hits;
    private transient Counter localHits;
    private transient Counter misses;
    private transient Counter resolved;
    private transient Counter parkedCount;
    private transient Counter deadLettered;

    public ResolveAncestors(RecordDecoder.Codec<DocumentEvent> codec, ParentLookup lookup, boolean keyedByParent,
            Duration retryInterval, Duration maxRetryInterval, Duration maxWait, Duration cacheTtl, int localParents) {
        this.decoder = new RecordDecoder<>(codec);
        this.lookup = lookup;
        this.keyedByParent = keyedByParent;
        this.retryMillis = retryInterval.toMillis();
        this.maxRetryMillis = maxRetryInterval.toMillis();
        this.maxWaitMillis = maxWait.toMillis();
        this.cacheTtl = cacheTtl;
        this.localParents = localParents;
    }

    @Override
    public void open(Configuration parameters) throws Exception {
        // The cache expires, so state stays bounded on a repository of billions of folders; a later child re-reads.
        StateTtlConfig ttl = StateTtlConfig.newBuilder(org.apache.flink.api.common.time.Time.milliseconds(cacheTtl.toMillis()))
                .setUpdateType(StateTtlConfig.UpdateType.OnReadAndWrite).build();
        ValueStateDescriptor<List<String>> ids = new ValueStateDescriptor<>("parent-ancestor-ids",
                new TypeHint<List<String>>() { }.getTypeInfo());
        ids.enableTimeToLive(ttl);
        ValueStateDescriptor<String> path = new ValueStateDescriptor<>("parent-path", Types.STRING);
        path.enableTimeToLive(ttl);
        parentIds = getRuntimeContext().getState(ids);
        parentPath = getRuntimeContext().getState(path);
        parked = getRuntimeContext().getListState(new ListStateDescriptor<>("parked-records",
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        parkedSince = getRuntimeContext().getState(new ValueStateDescriptor<>("parked-since", Types.LONG));
        var metrics = getRuntimeContext().getMetricGroup();
        // Hit ratio = 1 - parentCacheMisses / resolvedWithParent: a miss is one MongoDB lookup (retries included),
        // whatever number of waiting siblings it releases.
        hits = metrics.counter("parentCacheHits");
        localHits = metrics.counter("parentsResolvedHere");
        misses = metrics.counter("parentCacheMisses");
        resolved = metrics.counter("resolvedWithParent");
        parkedCount = metrics.counter("parkedChildren");
        deadLettered = metrics.counter("deadLettered");
        task = getRuntimeContext().getTaskInfo();
        resolvedHere = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Ancestry> eldest) {
                return size() > localParents;
            }
        };
        lookup.open();
    }

    @Override
    public void close() throws Exception {
        lookup.close();
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<ImportedEvent> out) throws Exception {
        Optional<Ancestry> parent = keyedByParent && parkedSince.value() == null ? cachedParent(context) : Optional.empty();
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
        } else {
            hits.inc();
            resolved.inc();
            emitChild(document, parent.get(), out);
        }
    }

    /**
     * Releases the parked records in order: roots at once, children once their parent is known, which costs at most
     * one lookup per firing. If the parent is still missing, the records from the first child on stay parked,
     * undecoded, until the next firing, or become dead letters once they have waited too long.
     */
    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<ImportedEvent> out) throws Exception {
        List<RawRecord> waiting = new ArrayList<>();
        parked.get().forEach(bytes -> waiting.add(RawRecord.fromBytes(bytes)));
        if (waiting.isEmpty()) {
            return;
        }
        boolean expired = timestamp - parkedSince.value() >= maxWaitMillis;
        Optional<Ancestry> parent = keyedByParent ? cachedParent(context) : Optional.empty();
        boolean lookedUp = false;
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
            if (parent.isEmpty() && !lookedUp) {
                lookedUp = true;
                misses.inc();
                parent = lookup.find(document.getRepository(), document.getParentId());
                if (keyedByParent) {
                    parent.ifPresent(this::cache);
                }
            }
            if (parent.isPresent()) {
                resolved.inc();
                emitChild(document, parent.get(), out);
            } else if (expired) {
                deadLetter(record, "parent " + document.getParentId() + " not found within "
                        + Duration.ofMillis(maxWaitMillis), context);
            } else {
                parkedCount.dec(i);
                keepParked(waiting.subList(i, waiting.size()), timestamp, context);
                return;
            }
        }
        parkedCount.dec(waiting.size());
        parked.clear();
        parkedSince.clear();
    }

    private void keepParked(List<RawRecord> stillWaiting, long timestamp, OnTimerContext context) throws Exception {
        parked.update(stillWaiting.stream().map(RawRecord::toBytes).toList());
        // Back off: the interval doubles (it is the time waited so far) up to the maximum. A parent still missing
        // after one interval is usually stuck behind backpressure, and lookups every interval would be wasted.
        long waited = timestamp - parkedSince.value();
        context.timerService().registerProcessingTimeTimer(timestamp + Math.min(maxRetryMillis, Math.max(retryMillis, waited)));
    }

    private void park(RawRecord record, Context context) throws Exception {
        parked.add(record.toBytes());
        parkedCount.inc();
        if (parkedSince.value() == null) {
            long now = context.timerService().currentProcessingTime();
            parkedSince.update(now);
            context.timerService().registerProcessingTimeTimer(now + retryMillis);
        }
    }

    /** The document, or null once it has been dead-lettered (undecodable, or keyed by something but its parent). */
    private DocumentEvent decode(RawRecord record, Context context) throws Exception {
        DocumentEvent document = decoder.decode(record, reason -> deadLetter(record, reason, context));
        if (document != null && keyedByParent && !context.getCurrentKey().equals(DocumentKeys.parentKey(document))) {
            deadLetter(record, "record key '" + context.getCurrentKey() + "' is not the parent id of document "
                    + document.getId() + " ('" + DocumentKeys.parentKey(document) + "'): the documents topic must be "
                    + "keyed by parent id", context);
            return null;
        }
        return document;
    }

    /** A root is its own key: its ancestry is also the cache entry its children need. */
    private Ancestry emitRoot(DocumentEvent document, Collector<ImportedEvent> out) {
        Ancestry root = Ancestry.root(document.getId(), document.getName());
        if (keyedByParent) {
            cache(root);
        }
        out.collect(imported(document, root));
        return root;
    }

    private void emitChild(DocumentEvent document, Ancestry parent, Collector<ImportedEvent> out) {
        Ancestry ancestry = parent.child(document.getId(), document.getName());
        if (keyedByParent && localParents > 0 && KeyGroupRangeAssignment.assignKeyToParallelOperator(document.getId(),
                task.getMaxNumberOfParallelSubtasks(), task.getNumberOfParallelSubtasks()) == task.getIndexOfThisSubtask()) {
            if (document.getOperation() == Operation.DELETE) {
                resolvedHere.remove(document.getId());
            } else {
                resolvedHere.put(document.getId(), ancestry);
            }
        }
        out.collect(imported(document, ancestry));
    }

    private void deadLetter(RawRecord record, String reason, Context context) {
        deadLettered.inc();
        context.output(DeadLetters.TAG, DeadLetters.of(STAGE, reason, record));
    }

    /** The cache entry of the current key (the parent), filled from the parents resolved here if it has none. */
    private Optional<Ancestry> cachedParent(Context context) throws Exception {
        List<String> ids = parentIds.value();
        if (ids != null) {
            return Optional.of(new Ancestry(ids, parentPath.value()));
        }
        Ancestry here = resolvedHere.get(context.getCurrentKey());
        if (here == null) {
            return Optional.empty();
        }
        localHits.inc();
        cache(here);
        return Optional.of(here);
    }

    private void cache(Ancestry ancestry) {
        try {
            parentIds.update(new ArrayList<>(ancestry.ids()));
            parentPath.update(ancestry.path());
        } catch (Exception e) {
            throw new IllegalStateException("cannot update the parent cache", e);
        }
    }

    private static ImportedEvent imported(DocumentEvent document, Ancestry ancestry) {
        return ImportedEvent.newBuilder().setDocument(document).setAncestorIds(new ArrayList<>(ancestry.ancestorIds()))
                .setPath(ancestry.path()).setImportedAt(Instant.now()).build();
    }
}
