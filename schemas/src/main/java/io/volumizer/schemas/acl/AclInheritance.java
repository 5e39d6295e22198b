package io.volumizer.schemas.acl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.volumizer.schemas.event.Ace;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.EffectiveAcl;
import io.volumizer.schemas.event.Permission;

/**
 * The one computation of a document's effective ACL from its parent's effective ACL and its own ACL, as the import
 * does it for every document (a root's parent is nobody: it starts from nothing).
 *
 * <p>Semantics:
 * <ul>
 * <li>Without an own ACL a document inherits its parent's effective ACL as it is.</li>
 * <li>It starts from the parent's effective ACL, or from nothing if its ACL blocks inheritance.</li>
 * <li>Its entries then apply in order, so a later entry overrides an earlier one, and its own entries override what
 *     it inherits. A grant adds the principal to its permission and to every lower one (READ &lt; WRITE &lt; MANAGE:
 *     whoever may manage may write and read). A deny removes the principal from its permission and from every
 *     higher one (whoever may not read may not write either). So manage &sube; write &sube; read always holds.</li>
 * <li>A deny names one principal: the effective ACL lists principals, whose groups are matched at query time, so
 *     denying a user does not withhold what a group of theirs is granted, and denying {@link Principals#EVERYONE}
 *     removes only that entry. To withhold a document from everyone it inherits, block inheritance.</li>
 * </ul>
 * Principals keep the order they were first granted in (the parent's first). Administrators are not in any list:
 * they bypass ACLs where ACLs are applied.
 *
 * <p>The result may be the parent's own instance (a document without an ACL): neither is ever changed after it was
 * computed.
 */
public final class AclInheritance {

    private static final Permission[] PERMISSIONS = Permission.values();

    private AclInheritance() {
    }

    /** Nobody holds anything: what a root inherits. */
    public static EffectiveAcl none() {
        return new EffectiveAcl(List.of(), List.of(), List.of());
    }

    /**
     * @param parent the parent's effective ACL; null for a root, or for a parent stored before ACLs (nothing inherited)
     * @param own    the document's own ACL, null if it has none
     */
    public static EffectiveAcl effective(EffectiveAcl parent, Acl own) {
        EffectiveAcl inherited = parent == null ? none() : parent;
        if (own == null) {
            return inherited;
        }
        List<Set<String>> holders = new ArrayList<>(PERMISSIONS.length);
        for (Permission permission : PERMISSIONS) {
            holders.add(own.getBlockInheritance() ? new LinkedHashSet<>() : new LinkedHashSet<>(holders(inherited, permission)));
        }
        for (Ace ace : own.getAces()) {
            int level = ace.getPermission().ordinal();
            if (ace.getGranted()) {
                for (int lower = 0; lower <= level; lower++) {
                    holders.get(lower).add(ace.getPrincipal());
                }
            } else {
                for (int higher = level; higher < PERMISSIONS.length; higher++) {
                    holders.get(higher).remove(ace.getPrincipal());
                }
            }
        }
        return new EffectiveAcl(List.copyOf(holders.get(Permission.READ.ordinal())),
                List.copyOf(holders.get(Permission.WRITE.ordinal())), List.copyOf(holders.get(Permission.MANAGE.ordinal())));
    }

    /** The principals holding {@code permission} in an effective ACL. */
    public static List<String> holders(EffectiveAcl acl, Permission permission) {
        return switch (permission) {
            case READ -> acl.getRead();
            case WRITE -> acl.getWrite();
            case MANAGE -> acl.getManage();
        };
    }

    /** An entry granting {@code permission} to {@code principal}. */
    public static Ace grant(String principal, Permission permission) {
        return new Ace(principal, permission, true);
    }

    /** An entry denying {@code permission} to {@code principal}. */
    public static Ace deny(String principal, Permission permission) {
        return new Ace(principal, permission, false);
    }
}
