package io.volumizer.jobs.imports;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;

import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.stores.mongodb.Ancestry;

/**
 * The ancestry of the key's parent, in keyed state that expires unused after {@code ttl}, so that state stays bounded
 * on a repository of billions of folders (a later child reads the parent again). The state names are those of
 * savepoints already taken.
 */
final class CachedParent {

    private final ValueState<List<String>> ids;
    private final ValueState<String> path;
    /** Null in an entry restored from a savepoint taken before ACLs: that entry is read from MongoDB again. */
    private final ValueState<EffectiveAcl> acl;
    /** Null in an entry restored from a savepoint taken before versions: older than any a change requires. */
    private final ValueState<Long> version;

    CachedParent(RuntimeContext context, Duration ttl) {
        StateTtlConfig expiry = StateTtlConfig.newBuilder(ttl)
                .setUpdateType(StateTtlConfig.UpdateType.OnReadAndWrite).build();
        ids = context.getState(expiring("parent-ancestor-ids", new TypeHint<List<String>>() { }.getTypeInfo(), expiry));
        path = context.getState(expiring("parent-path", Types.STRING, expiry));
        acl = context.getState(expiring("parent-acl", new AvroTypeInfo<>(EffectiveAcl.class), expiry));
        version = context.getState(expiring("parent-version", Types.LONG, expiry));
    }

    private static <T> ValueStateDescriptor<T> expiring(String name, TypeInformation<T> type, StateTtlConfig expiry) {
        ValueStateDescriptor<T> descriptor = new ValueStateDescriptor<>(name, type);
        descriptor.enableTimeToLive(expiry);
        return descriptor;
    }

    Optional<Ancestry> get() throws Exception {
        List<String> cachedIds = ids.value();
        EffectiveAcl cachedAcl = cachedIds == null ? null : acl.value();
        if (cachedAcl == null) {
            return Optional.empty();
        }
        Long cachedVersion = version.value();
        return Optional.of(new Ancestry(cachedIds, path.value(), cachedAcl, cachedVersion == null ? 0 : cachedVersion));
    }

    void put(Ancestry ancestry) {
        try {
            ids.update(new ArrayList<>(ancestry.ids()));
            path.update(ancestry.path());
            // A parent stored before ACLs has none: its children inherit nothing (the computation's null parent).
            acl.update(ancestry.acl() == null ? AclInheritance.none() : ancestry.acl());
            version.update(ancestry.version());
        } catch (Exception e) {
            throw new IllegalStateException("cannot update the parent cache", e);
        }
    }
}
