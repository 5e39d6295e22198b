package io.volumizer.jobs.imports;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.volumizer.stores.mongodb.Ancestry;

/**
 * The ancestries (effective ACLs included) of folders just resolved by the import subtasks of one job in this
 * TaskManager, shared by those subtasks, least recently used out. A folder is resolved in the subtask of its
 * parent's key, while its children are keyed to its own id, usually another subtask: shared, the children find it
 * there instead of in MongoDB.
 *
 * <p>It lives outside Flink state on purpose: it is a cache of what the job itself has just decided, lost at a
 * restart with no harm (the children then read MongoDB). One instance per scope (job and task), dropped when the
 * scope's last subtask in this TaskManager closes.
 */
final class ResolvedFolders {

    private static final Map<String, ResolvedFolders> BY_SCOPE = new HashMap<>();

    private final String scope;
    private final Map<String, Ancestry> ancestries;
    private int subtasks;

    private ResolvedFolders(String scope, int capacity) {
        this.scope = scope;
        this.ancestries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Ancestry> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The instance of a scope, shared with the scope's other subtasks in this TaskManager; {@link #release} it. */
    static ResolvedFolders acquire(String scope, int capacity) {
        synchronized (BY_SCOPE) {
            ResolvedFolders folders = BY_SCOPE.computeIfAbsent(scope, s -> new ResolvedFolders(s, capacity));
            folders.subtasks++;
            return folders;
        }
    }

    void release() {
        synchronized (BY_SCOPE) {
            if (--subtasks == 0) {
                BY_SCOPE.remove(scope);
            }
        }
    }

    synchronized Optional<Ancestry> get(String id) {
        return Optional.ofNullable(ancestries.get(id));
    }

    /** Remembers the folder's ancestry, unless it holds a newer version's (an older event replayed). */
    synchronized void put(String id, Ancestry ancestry) {
        ancestries.merge(id, ancestry, (held, given) -> given.isAtLeast(held.version()) ? given : held);
    }

    synchronized void remove(String id) {
        ancestries.remove(id);
    }
}
