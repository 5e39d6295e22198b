package io.volumizer.api.documents;

import static io.volumizer.api.documents.RecursiveDelete.RECURSIVE;
import static io.volumizer.stores.DocumentFields.ACL;
import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.DELETED;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.READ_ACL;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.bson.Document;

import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Filters;

import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadPolicy;
import io.volumizer.domain.topology.Topology;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Permission;

/**
 * Event-sourced writes: a write is checked against what MongoDB holds and the caller's rights, then appended to the
 * documents topic ({@link DocumentsTopic}); the import and index jobs apply it. {@code If-Match} is checked against
 * the stored version.
 *
 * <p>Permissions, as Nuxeo asks them: Write on the parent to create a document, Write on a document to change or
 * delete it, Manage on a folder to delete it with its descendants (and Write on each of them), Manage to set its ACL
 * (on the parent for a new document). A document the caller may not read answers as one that does not exist (no
 * existence leak); one it reads but may not change answers 403.
 *
 * <p>No answer to a non-administrator depends on a document it may not read: its new documents' names carry their
 * id ({@link #ownName}), so a name a hidden sibling holds never refuses it; a document with content holds no
 * children, so renaming or deleting a file never asks for its children; a folder is renamed by administrators only
 * and deleted with {@code ?recursive=true} only, whatever it holds (docs/decisions: hidden documents on the write
 * paths).
 */
public final class DocumentWriteService {

    /** What separates the name a non-administrator gave from its document's id in the name stored. */
    static final String OWN_NAME_SEPARATOR = "~";
    /** What the id the API generates for a new document begins with, before its UUID. */
    private static final String GENERATED_ID_PREFIX = "doc-";

    private final Documents documents;
    private final ReadPolicy policy;
    private final Children children;
    private final Backends backends;
    private final Optional<Topology> topology;
    /** The topology's routing properties, each with why it is fixed (none without a topology). */
    private final Map<String, String> routingProperties;
    private final DocumentsTopic topic;
    private final AppliedWrites applied;
    private final RecursiveDelete recursiveDelete;

    /**
     * @param topology           the repositories and the rules that route a new document, or empty: each document
     *                           goes to the repository of the path
     * @param waitTimeout        how long the broker's acknowledgements, and a write's application, are waited for
     * @param maxEventBytes      the largest event the documents topic takes
     * @param maxRecursiveDelete the most descendants a recursive delete deletes; more is the bulk delete command's
     */
    public DocumentWriteService(Documents documents, ReadPolicy policy, Children children, Backends backends,
            Optional<Topology> topology, Duration waitTimeout, long maxEventBytes, int maxRecursiveDelete) {
        this.documents = documents;
        this.policy = policy;
        this.children = children;
        this.backends = backends;
        this.topology = topology;
        this.routingProperties = topology.map(Topology::routingProperties).orElse(Map.of());
        this.topic = new DocumentsTopic(backends, waitTimeout, maxEventBytes);
        this.applied = new AppliedWrites(documents, waitTimeout);
        this.recursiveDelete = new RecursiveDelete(documents, policy, topic, applied, maxRecursiveDelete);
    }

    /** How a write is waited for until MongoDB shows it (read-your-write). */
    AppliedWrites applied() {
        return applied;
    }

    /** Where a document's parent or children may be: its own repository first, then the topology's others. */
    private List<String> around(String repository) {
        return Topology.ownFirst(repository, topology.map(Topology::repositories).orElse(List.of()));
    }

    /**
     * Creates a document under a parent in any repository of the topology, in the repository its rules route it to
     * ({@code repository}, without a topology): the event appended says which.
     */
    public DocumentEvent create(Caller caller, String repository, DocumentBody body) {
        DocumentInput input = body.input().requireForCreate();
        Document parent = documents.find(around(repository), input.parentId())
                .filter(found -> policy.mayRead(caller, found)).orElseThrow(() ->
                ApiException.badRequest(PARENT_ID, "no document '" + input.parentId() + "' in repository '"
                        + repository + "'" + (topology.isPresent() ? " or the topology's others" : "")));
        require(caller, parent, Permission.WRITE, PARENT_ID, "creating a document under it");
        if (!isFolder(parent)) {
            throw ApiException.badRequest(PARENT_ID, "document '" + input.parentId() + "' has content: only a folder (a "
                    + "document without a file) holds documents");
        }
        // A chosen id that is taken answers 409, which would tell whether a document the caller may not read exists.
        if (input.id() != null && !caller.administrator()) {
            throw new ApiException(403, "forbidden", ID, "choosing a document's id is an administrator's: leave it out"
                    + " and the API generates one");
        }
        if (input.acl() != null) {
            require(caller, parent, Permission.MANAGE, ACL, "creating a document with an ACL under it");
        }
        String id = input.id() != null ? input.id() : GENERATED_ID_PREFIX + UUID.randomUUID();
        String name = caller.administrator() ? input.name() : ownName(input.name(), id);
        Instant now = Instant.now();
        DocumentEvent event = DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository(repository)
                .setId(id).setParentId(input.parentId()).setType(input.type()).setName(name)
                .setTitle(input.title() != null ? input.title() : input.name()).setCreated(now).setModified(now)
                .setProperties(withParentsRouting(input.properties(), parent)).setAcl(input.acl())
                .setEventTime(now).setVersion(0L).setOrigin(DocumentsTopic.origin()).build();
        String routedTo = topology.map(t -> t.route(event, now)).orElse(repository);
        event.setRepository(routedTo);
        event.setBlob(body.blob());
        topic.checkSize(event);
        checkNameFree(caller, routedTo, input.parentId(), name, null);
        // A generated id is new; a client's may name a live document (ids are unique across a topology's
        // repositories), or a tombstone whose version to exceed.
        if (input.id() != null && documents.find(around(routedTo), id).isPresent()) {
            throw ApiException.conflict(ID, "document '" + id + "' already exists");
        }
        Document previous = input.id() == null ? null : documents.findAny(routedTo, id).orElse(null);
        event.setVersion(topic.nextVersion(routedTo, previous == null ? 0 : previous.getLong(VERSION)));
        store(body, routedTo);
        topic.append(List.of(event));
        return event;
    }

    /**
     * Replaces the given fields (title, properties, name of a leaf, blob); the others keep their stored value. A
     * document stays in its repository, and keeps the value of its repository's shard routing property.
     *
     * @param ifMatch the version the request expects ({@code If-Match}), or null
     * @param body    read once the caller is known to may change the document
     */
    public DocumentEvent update(Caller caller, String repository, String id, String ifMatch, Supplier<DocumentBody> body) {
        Document current = matching(caller, repository, id, ifMatch);
        require(caller, current, Permission.WRITE, ID, "changing it");
        DocumentBody given = body.get();
        DocumentInput input = given.input();
        String key = current.getString(KEY);
        if (input.acl() != null) {
            require(caller, current, Permission.MANAGE, ACL, "changing its ACL");
            // Its descendants' effective ACLs were computed from its own: they would keep the old one. Asked of
            // MongoDB, tombstones included (the index lags, and the import caches a parent that ever had a child).
            if (everAParent(repository, key)) {
                throw ApiException.conflict(ACL, "document '" + key + "' has children, whose effective ACLs follow its "
                        + "own: change it with the setAcl bulk command, which recomputes them (POST /api/v1/" + repository
                        + "/bulk {\"action\": \"setAcl\", \"params\": {\"document\": \"" + key + "\", \"acl\": {...}}}; "
                        + "bin/volumizer bulk set-acl)");
            }
        }
        unchanged(ID, input.id(), key, "the id of a document cannot change");
        unchanged(PARENT_ID, input.parentId(), current.getString(PARENT_ID), "moving a document is not supported");
        unchanged(TYPE, input.type(), current.getString(TYPE), "the type of a document cannot change");
        String name = input.name() == null || caller.administrator() ? input.name() : ownName(input.name(), key);
        if (name != null && !name.equals(current.getString(NAME))) {
            if (!caller.administrator() && isFolder(current)) {
                throw new ApiException(403, "forbidden", NAME, "a folder is renamed by an administrator: its "
                        + "descendants' paths follow its name");
            }
            if (caller.administrator() && children.any(around(repository), key)) {
                throw ApiException.conflict(NAME, "only documents without children can be renamed");
            }
            checkNameFree(caller, repository, current.getString(PARENT_ID), name, key);
        }
        DocumentEvent stored = topic.event(current, Operation.UPDATE);
        if (input.properties() != null) {
            routingProperties.forEach((property, why) -> {
                Object was = stored.getProperties().get(property);
                if (!sameValue(was, input.properties().get(property))) {
                    throw ApiException.badRequest("properties." + property, property + " cannot change (was " + was
                            + "): " + why + ", and documents are not moved");
                }
            });
        }
        BlobRef upload = given.blob();
        if (upload != null && isFolder(current)) {
            throw ApiException.badRequest(MultipartDocument.FILE_PART, "document '" + key + "' is a folder: a folder "
                    + "holds documents, not a file");
        }
        DocumentEvent event = DocumentEvent.newBuilder(stored)
                .setName(name != null ? name : stored.getName())
                .setTitle(input.title() != null ? input.title() : stored.getTitle())
                .setProperties(input.properties() != null ? input.properties() : stored.getProperties())
                .setBlob(upload != null ? upload : stored.getBlob())
                .setAcl(input.acl() != null ? input.acl() : stored.getAcl())
                .build();
        topic.checkSize(event);
        store(given, repository);
        topic.append(List.of(event));
        return event;
    }

    /**
     * Appends a tombstone. A document with children is deleted only with {@code recursive} (else 409 naming the
     * flag), and then its descendants with it ({@link RecursiveDelete}). For a non-administrator every folder is one
     * that may have children: the answer never says whether it holds some it may not read.
     *
     * @param recursive the flag, read once the caller is known to may delete the document
     */
    public DocumentEvent delete(Caller caller, String repository, String id, String ifMatch, BooleanSupplier recursive) {
        Document current = matching(caller, repository, id, ifMatch);
        require(caller, current, Permission.WRITE, ID, "deleting it");
        String key = current.getString(KEY);
        boolean descendantsToo = recursive.getAsBoolean();
        boolean mayHaveChildren = caller.administrator() ? children.any(around(repository), key) : isFolder(current);
        if (mayHaveChildren) {
            if (!descendantsToo) {
                throw new ApiException(409, "folder_needs_recursive", RECURSIVE, "document '" + key + "' is a folder"
                        + (caller.administrator() ? " with children" : "") + ": delete it with ?" + RECURSIVE
                        + "=true to delete its descendants too");
            }
            require(caller, current, Permission.MANAGE, RECURSIVE, "deleting it with its descendants");
            recursiveDelete.descendants(caller, repository, around(repository), key);
        }
        DocumentEvent event = topic.event(current, Operation.DELETE);
        topic.append(List.of(event));
        return event;
    }

    /** Stores the body's file, if any, in the blob store of the document's repository: once its event is checked. */
    private void store(DocumentBody body, String repository) {
        if (body.file() != null) {
            backends.blobs.require(repository).put(body.file());
        }
    }

    /** Whether a document is a folder: one without content, which may hold documents. */
    private static boolean isFolder(Document document) {
        return document.get(BLOB) == null;
    }

    /**
     * The name a non-administrator's document is stored under: the name it gave, then its id (12 hexadecimal
     * characters of a generated one's UUID), which no other document holds, so that whether a sibling it may not read
     * holds the name it gave never shows.
     */
    static String ownName(String given, String id) {
        String unique = id.startsWith(GENERATED_ID_PREFIX)
                ? id.substring(GENERATED_ID_PREFIX.length()).replace("-", "").substring(0, 12) : id;
        String suffix = OWN_NAME_SEPARATOR + unique;
        if (given.endsWith(suffix)) {
            return given;
        }
        return given.substring(0, Math.min(given.length(), 255 - suffix.length())) + suffix;
    }

    /**
     * A new document's properties with the routing properties its parent has and it does not give (a customer's
     * documents stay in one repository and on one shard); one that gives another value than its parent's is refused.
     */
    private Map<String, Object> withParentsRouting(Map<String, Object> given, Document parent) {
        Map<String, Object> properties = given != null ? new HashMap<>(given) : new HashMap<>();
        Document parentProperties = parent.get(PROPERTIES, Document.class);
        if (parentProperties == null) {
            return properties;
        }
        routingProperties.forEach((property, why) -> {
            Object inherited = parentProperties.get(property);
            if (inherited == null) {
                return;
            }
            Object own = properties.putIfAbsent(property, inherited);
            if (own != null && !sameValue(own, inherited)) {
                throw ApiException.badRequest("properties." + property, property + " must be the parent's (" + inherited
                        + "), was " + own + ": " + why);
            }
        });
        return properties;
    }

    /** Property values compared as text, as the routing rules compare them. */
    private static boolean sameValue(Object a, Object b) {
        return Objects.equals(a == null ? null : a.toString(), b == null ? null : b.toString());
    }

    /** Whether any document, live or deleted, in any repository of the topology names {@code id} as its parent. */
    private boolean everAParent(String repository, String id) {
        return around(repository).stream().anyMatch(lookIn -> documents.collection(lookIn)
                .find(Filters.eq(PARENT_ID, id)).projection(Projections.include(KEY)).first() != null);
    }

    private void checkNameFree(Caller caller, String repository, String parentId, String name, String exceptId) {
        // Exactly the keys of the unique (parentId, name) index, as a plain document: servers that match an index
        // only on a query naming exactly its keys (the local stand-in) answer it from the index.
        documents.collection(repository).find(new Document(PARENT_ID, parentId).append(NAME, name))
                .projection(Projections.include(KEY, DELETED, READ_ACL))
                .forEach(holder -> {
                    if (!holder.getString(KEY).equals(exceptId)) {
                        // The holder is named only to a caller that may read it.
                        String which = policy.mayRead(caller, holder) ? (Documents.live(holder) ? "" : "deleted ")
                                + "document '" + holder.getString(KEY) + "'" : "another document";
                        throw ApiException.conflict(NAME, "'" + name + "' is already the name of " + which
                                + " under '" + parentId + "'");
                    }
                });
    }

    private static void unchanged(String field, String given, String stored, String message) {
        if (given != null && !given.equals(stored)) {
            throw ApiException.badRequest(field, message);
        }
    }

    /** The stored document the request names: 404 when there is none, 412 when If-Match names another version. */
    private Document matching(Caller caller, String repository, String id, String ifMatch) {
        Document current = documents.require(List.of(repository), id, found -> policy.mayRead(caller, found));
        String etag = DocumentJson.etag(current.getLong(VERSION));
        if (ifMatch != null && !ifMatch.equals("*") && !ifMatch.replaceFirst("^W/", "").equals(etag)) {
            throw new ApiException(412, "precondition_failed", "If-Match", "document '" + current.getString(KEY)
                    + "' is at version " + etag + ", not " + ifMatch);
        }
        return current;
    }

    /**
     * Refuses the write unless the caller holds {@code permission} on {@code document}: 403 naming what needed it
     * (the caller reads the document: it may know it exists).
     */
    private void require(Caller caller, Document document, Permission permission, String field, String what) {
        if (!policy.holds(caller, document, permission)) {
            throw new ApiException(403, "forbidden", field, "'" + caller.name() + "' may not " + permission.name()
                    .toLowerCase(Locale.ROOT) + " document '" + document.getString(KEY) + "' (" + what + ")");
        }
    }
}
