package io.volumizer.stores.mongodb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.bson.Document;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;

/**
 * Who may do what to a stored document, found the slow, obvious way, to check what the import stored against (the
 * tests, and the benchmark of an ACL change's propagation, do): for
 * each principal and permission, walk from the document up through its parents (read from MongoDB, by
 * {@code parentId}) and let the first entry that decides it decide, the document's own entries last to first; a
 * block ends the walk, and so does the root: nothing decided is nothing granted. A grant of a permission decides
 * it and every lower one; a deny decides it and every higher one. Deliberately not the import's computation
 * ({@code AclInheritance}, which folds from the root down), so that the two check each other.
 *
 * <p>Administrators are not special here: where ACLs are applied, they bypass them.
 */
public final class BruteForceAcls {

    private final Function<String, Document> storedById;
    private final Map<String, Document> read = new HashMap<>();

    /** @param storedById the stored document of an id, or null: across repositories, if a topology spreads them */
    public BruteForceAcls(Function<String, Document> storedById) {
        this.storedById = storedById;
    }

    /** Documents of any of {@code collections} (those of a topology's repositories, say). */
    public static BruteForceAcls over(List<MongoCollection<Document>> collections) {
        return new BruteForceAcls(id -> {
            for (MongoCollection<Document> collection : collections) {
                Document found = collection.find(Filters.eq(DocumentFields.KEY, id)).first();
                if (found != null) {
                    return found;
                }
            }
            return null;
        });
    }

    /**
     * What is wrong in the effective ACLs stored with {@code documents} ({@code readAcl}, {@code writeAcl},
     * {@code manageAcl}), one line per document and permission that differs from the brute-force one: none if all
     * are right. Only their ancestors are read (and kept) by id: the documents may be a whole subtree, streamed.
     */
    public List<String> mismatches(Iterable<Document> documents) {
        List<String> mismatches = new ArrayList<>();
        for (Document stored : documents) {
            List<Document> chain = new ArrayList<>(List.of(stored));
            String parent = stored.getString(DocumentFields.PARENT_ID);
            if (parent != null) {
                chain.addAll(selfAndAncestors(parent));
            }
            for (Permission permission : Permission.values()) {
                String field = DocumentFields.holdersOf(permission);
                Set<String> holders = stored.containsKey(field) ? new TreeSet<>(stored.getList(field, String.class)) : null;
                Set<String> expected = holders(chain, permission);
                if (!expected.equals(holders)) {
                    mismatches.add(stored.getString(DocumentFields.KEY) + " " + field + ": stored " + holders
                            + ", expected " + expected);
                }
            }
        }
        return mismatches;
    }

    /** Every principal {@code permission} is granted to on the document, sorted. */
    public Set<String> holders(String id, Permission permission) {
        return holders(selfAndAncestors(id), permission);
    }

    private static Set<String> holders(List<Document> chain, Permission permission) {
        Set<String> holders = new TreeSet<>();
        for (String principal : namedIn(chain)) {
            if (allows(chain, principal, permission)) {
                holders.add(principal);
            }
        }
        return holders;
    }

    /** Whether a caller holding {@code principals} (a user, its groups, Everyone) has {@code permission} on the document. */
    public boolean allows(String id, Set<String> principals, Permission permission) {
        return principals.stream().anyMatch(principal -> allows(id, principal, permission));
    }

    /** Whether {@code principal} has {@code permission} on the document. */
    public boolean allows(String id, String principal, Permission permission) {
        return allows(selfAndAncestors(id), principal, permission);
    }

    /** Whether {@code principal} has {@code permission} on the first document of {@code chain} (itself, then its parents). */
    private static boolean allows(List<Document> chain, String principal, Permission permission) {
        for (Document document : chain) {
            Document acl = document.get(DocumentFields.ACL, Document.class);
            if (acl == null) {
                continue;
            }
            List<Document> aces = acl.getList(DocumentFields.Acl.ACES, Document.class);
            for (int i = aces.size() - 1; i >= 0; i--) {
                Document ace = aces.get(i);
                if (!ace.getString(DocumentFields.Acl.PRINCIPAL).equals(principal)) {
                    continue;
                }
                int level = Permission.valueOf(ace.getString(DocumentFields.Acl.PERMISSION)).ordinal();
                boolean granted = ace.getBoolean(DocumentFields.Acl.GRANTED);
                if (granted && level >= permission.ordinal()) {
                    return true;
                }
                if (!granted && level <= permission.ordinal()) {
                    return false;
                }
            }
            if (acl.getBoolean(DocumentFields.Acl.BLOCK_INHERITANCE)) {
                return false;
            }
        }
        return false;
    }

    /** The principals any entry of a chain names. */
    private static Set<String> namedIn(List<Document> chain) {
        Set<String> principals = new LinkedHashSet<>();
        for (Document document : chain) {
            Document acl = document.get(DocumentFields.ACL, Document.class);
            if (acl != null) {
                acl.getList(DocumentFields.Acl.ACES, Document.class)
                        .forEach(ace -> principals.add(ace.getString(DocumentFields.Acl.PRINCIPAL)));
            }
        }
        return principals;
    }

    /** The document, then its parent, up to the root. */
    private List<Document> selfAndAncestors(String id) {
        List<Document> chain = new ArrayList<>();
        for (String at = id; at != null; ) {
            Document document = read.computeIfAbsent(at, storedById);
            if (document == null) {
                throw new IllegalStateException("document " + at + " (an ancestor of " + id + ") is not stored");
            }
            chain.add(document);
            at = document.getString(DocumentFields.PARENT_ID);
        }
        return chain;
    }
}
