package io.volumizer.jobs.imports;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.mongodb.Ancestry;

/**
 * Resolves each document's ancestors, keyed by parent id, so that all children of a parent meet here and share
 * one cache entry: the parent's ancestry, in keyed state. On a miss the child is parked in state and the parent is
 * looked up in MongoDB one retry interval later, once for every sibling parked meanwhile. The wait is deliberate: a
 * parent that is new is usually still in flight (in the writer's batch), and an immediate lookup would mostly find
 * nothing and cost a second one. A parent still missing is looked up again at doubling intervals (up to a maximum),
 * never dropped; past the configured wait its children become dead letters naming it.
 */
public final class ResolveAncestors extends KeyedProcessFunction<String, DocumentEvent, ImportedEvent> {

    private static final long serialVersionUID = 1L;
    public static final String STAGE = "import";

    private final ParentLookup lookup;
    private final long retryMillis;
    private final long maxRetryMillis;
    private final long maxWaitMillis;
    private final Duration cacheTtl;
    private final PayloadEncoder payloadEncoder;

    private transient ValueState<List<String>> parentIds;
    private transient ValueState<String> parentPath;
    private transient ListState<DocumentEvent> parked;
    private transient ValueState<Long> parkedSince;
    private transient Counter hits;
    private transient Counter misses;
    private transient Counter resolved;
    private transient Counter parkedCount;
    private transient Counter deadLettered;

    public ResolveAncestors(ParentLookup lookup, Duration retryInterval, Duration maxRetryInterval, Duration maxWait,
            Duration cacheTtl, PayloadEncoder payloadEncoder) {
        this.lookup = lookup;
        this.retryMillis = retryInterval.toMillis();
        this.maxRetryMillis = maxRetryInterval.toMillis();
        this.maxWaitMillis = maxWait.toMillis();
        this.cacheTtl = cacheTtl;
        this.payloadEncoder = payloadEncoder;
    }

    /** The bytes a dead letter keeps of a document: in production, the documents topic's wire format. */
    public interface PayloadEncoder extends java.io.Serializable {
        byte[] encode(DocumentEvent document);
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
        parked = getRuntimeContext().getListState(new ListStateDescriptor<>("parked-children",
                TypeInformation.of(DocumentEvent.class)));
        parkedSince = getRuntimeContext().getState(new ValueStateDescriptor<>("parked-since", Types.LONG));
        var metrics = getRuntimeContext().getMetricGroup();
        // Hit ratio = 1 - parentCacheMisses / resolvedWithParent: a miss is one MongoDB lookup (retries included),
        // whatever number of waiting siblings it releases.
        hits = metrics.counter("parentCacheHits");
        misses = metrics.counter("parentCacheMisses");
        resolved = metrics.counter("resolvedWithParent");
        parkedCount = metrics.counter("parkedChildren");
        deadLettered = metrics.counter("deadLettered");
        lookup.open();
    }

    @Override
    public void close() throws Exception {
        lookup.close();
    }

    @Override
    public void processElement(DocumentEvent document, Context context, Collector<ImportedEvent> out)
            throws Exception {
        if (document.getParentId() == null) {
            out.collect(imported(document, Ancestry.root(document.getId(), document.getName())));
            return;
        }
        Optional<Ancestry> parent = cachedParent();
        if (parent.isPresent()) {
            hits.inc();
            resolved.inc();
            out.collect(imported(document, parent.get().child(document.getId(), document.getName())));
        } else {
            park(document, context);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<ImportedEvent> out) throws Exception {
        List<DocumentEvent> waiting = new ArrayList<>();
        parked.get().forEach(waiting::add);
        if (waiting.isEmpty()) {
            return;
        }
        String parentId = waiting.get(0).getParentId();
        Optional<Ancestry> parent = cachedParent();
        if (parent.isEmpty()) {
            misses.inc();
            parent = lookup.find(waiting.get(0).getRepository(), parentId);
        }
        if (parent.isPresent()) {
            cache(parent.get());
            resolved.inc(waiting.size());
            for (DocumentEvent document : waiting) {
                out.collect(imported(document, parent.get().child(document.getId(), document.getName())));
            }
        } else if (timestamp - parkedSince.value() >= maxWaitMillis) {
            for (DocumentEvent document : waiting) {
                deadLettered.inc();
                context.output(DeadLetters.TAG, DeadLetters.of(STAGE, "parent " + parentId
                        + " not found within " + Duration.ofMillis(maxWaitMillis), document.getId(),
                        payloadEncoder.encode(document)));
            }
        } else {
            // Back off: the interval doubles (it is the time waited so far) up to the maximum. A parent still missing
            // after one interval is usually stuck behind backpressure, and lookups every interval would be wasted.
            long waited = timestamp - parkedSince.value();
            context.timerService().registerProcessingTimeTimer(timestamp + Math.min(maxRetryMillis, Math.max(retryMillis, waited)));
            return;
        }
        parkedCount.dec(waiting.size());
        parked.clear();
        parkedSince.clear();
    }

    private void park(DocumentEvent document, Context context) throws Exception {
        parked.add(document);
        parkedCount.inc();
        if (parkedSince.value() == null) {
            long now = context.timerService().currentProcessingTime();
            parkedSince.update(now);
            context.timerService().registerProcessingTimeTimer(now + retryMillis);
        }
    }

    private Optional<Ancestry> cachedParent() throws Exception {
        List<String> ids = parentIds.value();
        return ids == null ? Optional.empty() : Optional.of(new Ancestry(ids, parentPath.value()));
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
