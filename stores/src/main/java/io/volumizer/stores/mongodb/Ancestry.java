package io.volumizer.stores.mongodb;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.EffectiveAcl;

/**
 * Where a document sits and who may do what to it: the ids from the root down to and including the document itself,
 * its path of names, and its effective ACL, as of one version of the document. A child's ancestry is its parent's
 * ancestry plus itself, its effective ACL the parent's with its own ACL applied ({@link AclInheritance}).
 *
 * @param acl     the document's effective ACL; null for a document stored before ACLs (its children inherit nothing)
 * @param version the version of the document this ancestry is of (0: unknown, older than any)
 */
public record Ancestry(List<String> ids, String path, EffectiveAcl acl, long version) implements Serializable {

    /** A root's: it inherits nothing, its own ACL is all its effective ACL. */
    public static Ancestry root(String id, String name, Acl own, long version) {
        return new Ancestry(List.of(id), "/" + name, AclInheritance.effective(null, own), version);
    }

    public Ancestry child(String id, String name, Acl own, long version) {
        List<String> childIds = new ArrayList<>(ids.size() + 1);
        childIds.addAll(ids);
        childIds.add(id);
        return new Ancestry(childIds, path + "/" + name, AclInheritance.effective(acl, own), version);
    }

    /** Whether this is of {@code version} of the document or a newer one. */
    public boolean isAtLeast(long version) {
        return this.version >= version;
    }

    /** The ids above the document (all but the last). */
    public List<String> ancestorIds() {
        return ids.subList(0, ids.size() - 1);
    }
}
