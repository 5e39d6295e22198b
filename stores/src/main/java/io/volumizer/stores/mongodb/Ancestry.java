package io.volumizer.stores.mongodb;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a document sits: the ids from the root down to and including the document itself, and its path of names.
 * A child's ancestry is its parent's ancestry plus itself.
 */
public record Ancestry(List<String> ids, String path) implements Serializable {

    public static Ancestry root(String id, String name) {
        return new Ancestry(List.of(id), "/" + name);
    }

    public Ancestry child(String id, String name) {
        List<String> childIds = new ArrayList<>(ids.size() + 1);
        childIds.addAll(ids);
        childIds.add(id);
        return new Ancestry(childIds, path + "/" + name);
    }

    /** The ids above the document (all but the last). */
    public List<String> ancestorIds() {
        return ids.subList(0, ids.size() - 1);
    }
}
