package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.DELETED;
import static io.volumizer.stores.DocumentFields.ACL;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.READ_ACL;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.model.CountOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;

import io.javalin.http.Context;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.internal.BackendUnavailableException;
import io.volumizer.api.internal.Correlation;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.api.internal.RequestBodies;
import io.volumizer.api.internal.RequestJson;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadPolicy;
import io.volumizer.domain.topology.Topology;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Permission;
import io.volumizer.schemas.event.Origin;
import io.volumizer.stores.DocumentFields;
import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.stores.blob.Uploads;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.mongodb.VersionAllocator;

/**
 * Event-sourced writes: a request is validated against what MongoDB holds, appended to the documents topic
 * (keyed by parent id, like every other writer) and answered 202; the import and index jobs apply it. With
 * {@code ?wait=true} the answer waits until MongoDB shows the new version, or 504 after the configured timeout.
 * {@code If-Match} is checked against the stored version.
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
public final class DocumentWrites {

    private static final Logger LOG = LoggerFactory.getLogger(DocumentWrites.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WAIT = "wait";
    /** The flag a delete of a document with children needs: its descendants are deleted with it. */
    public static final String RECURSIVE = "recursive";
    private static final Set<String> PARAMETERS = Set.of(WAIT);
    private static final Set<String> DELETE_PARAMETERS = Set.of(WAIT, RECURSIVE);
    private static final Duration APPLIED_POLL = Duration.ofMillis(20);
    /** How many descendants a recursive delete reads at a time while it checks the caller's rights. */
    private static final int DESCENDANTS_PAGE = 500;
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
    private final VersionAllocator versions;
    private final Duration waitTimeout;
    private final long maxUploadBytes;
    private final RequestJson json;
    private final long maxEventBytes;
    private final int maxRecursiveDelete;

    /**
     * @param topology           the repositories and the rules that route a new document, or empty: each document
     *                           goes to the repository of the path
     * @param json               how a document's JSON is read, and its largest size
     * @param maxEventBytes      the largest event the documents topic takes
     * @param maxRecursiveDelete the most descendants a recursive delete deletes; more is the bulk delete command's
     */
    public DocumentWrites(Documents documents, ReadPolicy policy, Children children, Backends backends,
            Optional<Topology> topology, Duration waitTimeout, long maxUploadBytes, RequestJson json, long maxEventBytes,
            int maxRecursiveDelete) {
        this.documents = documents;
        this.policy = policy;
        this.children = children;
        this.backends = backends;
        this.topology = topology;
        this.routingProperties = topology.map(Topology::routingProperties).orElse(Map.of());
        this.waitTimeout = waitTimeout;
        this.maxUploadBytes = maxUploadBytes;
        this.json = json;
        this.maxEventBytes = maxEventBytes;
        this.maxRecursiveDelete = maxRecursiveDelete;
        this.versions = new VersionAllocator(backends.mongo, Clock.systemUTC());
    }

    /** Where a document's parent or children may be: its own repository first, then the topology's others. */
    private List<String> around(String repository) {
        return Topology.ownFirst(repository, topology.map(Topology::repositories).orElse(List.of()));
    }

    /** What every write request names: its repository, and whether to answer once MongoDB shows the write. */
    private record Target(String repository, boolean waitForMongoDb, QueryParameters parameters) {

        static Target of(Context ctx) {
            return of(ctx, PARAMETERS);
        }

        static Target of(Context ctx, Set<String> parameters) {
            QueryParameters given = new QueryParameters(ctx.queryParamMap(), parameters);
            return new Target(Documents.checkRepository(ctx.pathParam("repository")), given.bool(WAIT), given);
        }
    }

    /**
     * Creates a document under a parent in any repository of the topology, in the repository its rules route it to
     * (the path's, without a topology); the answer's Location names that repository.
     */
    public void create(Context ctx) {
        Target target = Target.of(ctx);
        Caller caller = Caller.of(ctx);
        Body body = body(ctx);
        DocumentInput input = body.input().requireForCreate();
        Document parent = documents.find(around(target.repository()), input.parentId())
                .filter(found -> policy.mayRead(caller, found)).orElseThrow(() ->
                ApiException.badRequest(PARENT_ID, "no document '" + input.parentId() + "' in repository '"
                        + target.repository() + "'" + (topology.isPresent() ? " or the topology's others" : "")));
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
        DocumentEvent event = DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository(target.repository())
                .setId(id).setParentId(input.parentId()).setType(input.type()).setName(name)
                .setTitle(input.title() != null ? input.title() : input.name()).setCreated(now).setModified(now)
                .setProperties(withParentsRouting(input.properties(), parent)).setAcl(input.acl())
                .setEventTime(now).setVersion(0L).setOrigin(Origin.newBuilder().setSource("api").build()).build();
        String repository = topology.map(t -> t.route(event, now)).orElse(target.repository());
        event.setRepository(repository);
        event.setBlob(body.blob());
        checkSize(event);
        checkNameFree(caller, repository, input.parentId(), name, null);
        // A generated id is new; a client's may name a live document (ids are unique across a topology's
        // repositories), or a tombstone whose version to exceed.
        if (input.id() != null && documents.find(around(repository), id).isPresent()) {
            throw ApiException.conflict(ID, "document '" + id + "' already exists");
        }
        Document previous = input.id() == null ? null : documents.findAny(repository, id).orElse(null);
        event.setVersion(versions.next(repository, previous == null ? 0 : previous.getLong(VERSION)));
        store(body, repository);
        append(List.of(event));
        respond(ctx, event, target.waitForMongoDb(), 201);
    }

    /**
     * Replaces the given fields (title, properties, name of a leaf, blob); the others keep their stored value. A
     * document stays in its repository, and keeps the value of its repository's shard routing property.
     */
    public void update(Context ctx) {
        Target target = Target.of(ctx);
        String repository = target.repository();
        Caller caller = Caller.of(ctx);
        Document current = matching(ctx, caller, repository);
        require(caller, current, Permission.WRITE, ID, "changing it");
        Body body = body(ctx);
        DocumentInput input = body.input();
        String id = current.getString(KEY);
        if (input.acl() != null) {
            require(caller, current, Permission.MANAGE, ACL, "changing its ACL");
            // Its descendants' effective ACLs were computed from its own: they would keep the old one. Asked of
            // MongoDB, tombstones included (the index lags, and the import caches a parent that ever had a child).
            if (everAParent(repository, id)) {
                throw ApiException.conflict(ACL, "document '" + id + "' has children, whose effective ACLs follow its "
                        + "own: change it with the setAcl bulk command, which recomputes them (POST /api/v1/" + repository
                        + "/bulk {\"action\": \"setAcl\", \"params\": {\"document\": \"" + id + "\", \"acl\": {...}}}; "
                        + "bin/volumizer bulk set-acl)");
            }
        }
        unchanged(ID, input.id(), id, "the id of a document cannot change");
        unchanged(PARENT_ID, input.parentId(), current.getString(PARENT_ID), "moving a document is not supported");
        unchanged(TYPE, input.type(), current.getString(TYPE), "the type of a document cannot change");
        String name = input.name() == null || caller.administrator() ? input.name() : ownName(input.name(), id);
        if (name != null && !name.equals(current.getString(NAME))) {
            if (!caller.administrator() && isFolder(current)) {
                throw new ApiException(403, "forbidden", NAME, "a folder is renamed by an administrator: its "
                        + "descendants' paths follow its name");
            }
            if (caller.administrator() && children.any(around(repository), id)) {
                throw ApiException.conflict(NAME, "only documents without children can be renamed");
            }
            checkNameFree(caller, repository, current.getString(PARENT_ID), name, id);
        }
        DocumentEvent stored = event(current, Operation.UPDATE);
        if (input.properties() != null) {
            routingProperties.forEach((property, why) -> {
                Object was = stored.getProperties().get(property);
                if (!sameValue(was, input.properties().get(property))) {
                    throw ApiException.badRequest("properties." + property, property + " cannot change (was " + was
                            + "): " + why + ", and documents are not moved");
                }
            });
        }
        BlobRef upload = body.blob();
        if (upload != null && isFolder(current)) {
            throw ApiException.badRequest(MultipartDocument.FILE_PART, "document '" + id + "' is a folder: a folder "
                    + "holds documents, not a file");
        }
        DocumentEvent event = DocumentEvent.newBuilder(stored)
                .setName(name != null ? name : stored.getName())
                .setTitle(input.title() != null ? input.title() : stored.getTitle())
                .setProperties(input.properties() != null ? input.properties() : stored.getProperties())
                .setBlob(upload != null ? upload : stored.getBlob())
                .setAcl(input.acl() != null ? input.acl() : stored.getAcl())
                .build();
        checkSize(event);
        store(body, repository);
        append(List.of(event));
        respond(ctx, event, target.waitForMongoDb(), 200);
    }

    /**
     * Appends a tombstone. A document with children is deleted only with {@code ?recursive=true} (else 409 naming
     * the flag), and then its descendants with it: see {@link #deleteDescendants}. For a non-administrator every
     * folder is one that may have children: the answer never says whether it holds some it may not read.
     */
    public void delete(Context ctx) {
        Target target = Target.of(ctx, DELETE_PARAMETERS);
        Caller caller = Caller.of(ctx);
        Document current = matching(ctx, caller, target.repository());
        require(caller, current, Permission.WRITE, ID, "deleting it");
        String id = current.getString(KEY);
        boolean recursive = target.parameters().bool(RECURSIVE);
        boolean mayHaveChildren = caller.administrator() ? children.any(around(target.repository()), id) : isFolder(current);
        if (mayHaveChildren) {
            if (!recursive) {
                throw new ApiException(409, "folder_needs_recursive", RECURSIVE, "document '" + id + "' is a folder"
                        + (caller.administrator() ? " with children" : "") + ": delete it with ?" + RECURSIVE
                        + "=true to delete its descendants too");
            }
            require(caller, current, Permission.MANAGE, RECURSIVE, "deleting it with its descendants");
            deleteDescendants(caller, target.repository(), id);
        }
        DocumentEvent event = event(current, Operation.DELETE);
        append(List.of(event));
        respond(ctx, event, target.waitForMongoDb(), 204);
    }

    /**
     * Deletes the live descendants of {@code folderId}, in any repository of the topology, deepest first. First every
     * descendant's id, depth and write holders are read, a page at a time, and the delete refused at the first one the
     * caller may not write, or past {@code maxRecursiveDelete}: no version is allocated and no document read whole
     * before. Then each level's documents are read and their tombstones appended and awaited in MongoDB before the
     * level above, since the import resolves a document's delete through its parent, which must still be live then (a
     * deleted parent leaves its children's events parked, then dead-lettered). A level that is not applied within the
     * wait timeout is a 504 with the folder still there; the same request again goes on with what is left.
     */
    private void deleteDescendants(Caller caller, String repository, String folderId) {
        // One count, stopped past the cap, before any page: a folder too large costs a request no more than that.
        long descendants = 0;
        for (String lookIn : around(repository)) {
            descendants += documents.collection(lookIn).countDocuments(Filters.eq(ANCESTOR_IDS, folderId),
                    new CountOptions().limit(maxRecursiveDelete + 1));
        }
        if (descendants > maxRecursiveDelete) {
            throw folderTooLarge(repository);
        }
        // Depth to the repositories and ids of its descendants, deepest first.
        TreeMap<Integer, Map<String, List<String>>> levels = new TreeMap<>(Comparator.reverseOrder());
        int count = 0;
        for (String lookIn : around(repository)) {
            String after = null;
            while (true) {
                List<Document> page = documents.collection(lookIn)
                        .find(after == null ? Filters.eq(ANCESTOR_IDS, folderId)
                                : Filters.and(Filters.eq(ANCESTOR_IDS, folderId), Filters.gt(KEY, after)))
                        .projection(Projections.include(KEY, DELETED, ANCESTOR_IDS,
                                DocumentFields.holdersOf(Permission.WRITE)))
                        .sort(new Document(KEY, 1)).limit(DESCENDANTS_PAGE).into(new ArrayList<>());
                for (Document descendant : page) {
                    if (!Documents.live(descendant)) {
                        continue;
                    }
                    if (!policy.holds(caller, descendant, Permission.WRITE)) {
                        // Neither named nor counted: the caller may not even read it.
                        LOG.info("recursive delete of '{}' by '{}' refused at a descendant it may not write", folderId,
                                caller.name());
                        throw new ApiException(403, "forbidden", RECURSIVE, "'" + caller.name() + "' may not delete "
                                + "everything under '" + folderId + "': nothing was deleted");
                    }
                    if (++count > maxRecursiveDelete) {
                        throw folderTooLarge(repository);
                    }
                    levels.computeIfAbsent(descendant.getList(ANCESTOR_IDS, String.class).size(), depth -> new HashMap<>())
                            .computeIfAbsent(lookIn, where -> new ArrayList<>()).add(descendant.getString(KEY));
                }
                if (page.size() < DESCENDANTS_PAGE) {
                    break;
                }
                after = page.get(page.size() - 1).getString(KEY);
            }
        }
        for (Map<String, List<String>> level : levels.values()) {
            List<DocumentEvent> tombstones = new ArrayList<>();
            level.forEach((lookIn, ids) -> {
                for (int from = 0; from < ids.size(); from += DESCENDANTS_PAGE) {
                    documents.collection(lookIn).find(Filters.in(KEY, ids.subList(from,
                            Math.min(ids.size(), from + DESCENDANTS_PAGE)))).forEach(descendant -> {
                                if (Documents.live(descendant)) {
                                    tombstones.add(event(descendant, Operation.DELETE));
                                }
                            });
                }
            });
            append(tombstones);
            awaitApplied(tombstones, folderId);
        }
    }

    private ApiException folderTooLarge(String repository) {
        return new ApiException(413, "folder_too_large", RECURSIVE, "a recursive delete deletes at most "
                + maxRecursiveDelete + " documents: delete a larger folder with the bulk delete command (POST /api/v1/"
                + repository + "/bulk, bin/volumizer bulk delete); nothing was deleted");
    }

    /** Waits until MongoDB holds every event's version (or a newer one: a later write won). */
    private void awaitApplied(List<DocumentEvent> events, String folderId) {
        List<DocumentEvent> pending = new ArrayList<>(events);
        long deadline = System.nanoTime() + waitTimeout.toNanos();
        while (true) {
            pending.removeIf(event -> documents.findAny(event.getRepository(), event.getId())
                    .filter(stored -> stored.getLong(VERSION) >= event.getVersion()).isPresent());
            if (pending.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline || !sleep(APPLIED_POLL)) {
                throw new ApiException(504, "timeout", RECURSIVE, pending.size() + " of the " + events.size()
                        + " deletes of a level under '" + folderId + "' were not visible in MongoDB within " + waitTimeout
                        + "; '" + folderId + "' is not deleted: repeat the request once the import job caught up");
            }
        }
    }

    /** What a write request sends: the document's fields, and a file when it is a multipart form. */
    private record Body(DocumentInput input, byte[] file, BlobRef blob) {
    }

    /** The request's document and file, each read under its cap, the file described but not yet stored. */
    private Body body(Context ctx) {
        if (!ctx.isMultipartFormData()) {
            return new Body(DocumentInput.parse(json, RequestBodies.read(ctx, json.maxBytes())), null, null);
        }
        MultipartDocument form = MultipartDocument.read(ctx, json, maxUploadBytes);
        if (form.json() == null) {
            throw ApiException.badRequest(MultipartDocument.DOCUMENT_PART, "a multipart request needs a '"
                    + MultipartDocument.DOCUMENT_PART + "' part holding the JSON");
        }
        DocumentInput input = DocumentInput.parse(json, form.json());
        return form.file() == null ? new Body(input, null, null)
                : new Body(input, form.file(), Uploads.describe(form.file(), form.filename()));
    }

    /** Stores the body's file, if any, in the blob store of the document's repository: once its event is checked. */
    private void store(Body body, String repository) {
        if (body.file() != null) {
            backends.blobs.require(repository).put(body.file());
        }
    }

    /** A 413 for an event the documents topic would refuse, before anything is stored. */
    private void checkSize(DocumentEvent event) {
        int size;
        try {
            size = event.toByteBuffer().remaining();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (size > maxEventBytes) {
            throw new ApiException(413, "payload_too_large", PROPERTIES, "the document is " + size + " bytes as an event;"
                    + " the documents topic takes at most " + maxEventBytes + ": store large values in its file");
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
    private Document matching(Context ctx, Caller caller, String repository) {
        Document current = documents.require(List.of(repository), ctx.pathParam("id"), found -> policy.mayRead(caller, found));
        String ifMatch = ctx.header("If-Match");
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

    /** The stored document as the next event of the given operation, from the API, with a new version. */
    private DocumentEvent event(Document current, Operation operation) {
        Instant now = Instant.now();
        return DocumentEvent.newBuilder(MongoDocumentStore.toEvent(current, operation)).setModified(now)
                .setEventTime(now).setVersion(versions.next(current.getString(REPOSITORY), current.getLong(VERSION)))
                .setOrigin(Origin.newBuilder().setSource("api").build()).build();
    }

    /** Appends to the documents topic and waits for the broker's acknowledgements (acks=all). */
    private void append(List<DocumentEvent> events) {
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (DocumentEvent event : events) {
                sent.add(backends.producer.send(new ProducerRecord<>(backends.documentsTopic, DocumentKeys.parentKey(event), event)));
            }
            long deadline = System.nanoTime() + waitTimeout.toNanos();
            for (Future<RecordMetadata> acknowledged : sent) {
                acknowledged.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (SerializationException e) {
            throw new BackendUnavailableException("registry", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException) {
                throw new ApiException(413, "payload_too_large", null, "the change is larger than the documents topic "
                        + "takes: store large values in the document's file");
            }
            throw new BackendUnavailableException("kafka", e.getCause());
        } catch (KafkaException | java.util.concurrent.TimeoutException e) {
            throw new BackendUnavailableException("kafka", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("kafka", e);
        }
    }

    private void respond(Context ctx, DocumentEvent event, boolean wait, int visibleStatus) {
        String location = DocumentReads.prefix(event.getRepository()) + "/documents/" + event.getId();
        ctx.header("Location", location);
        if (event.getOperation() != Operation.DELETE) {
            ctx.header("ETag", DocumentJson.etag(event.getVersion()));
        }
        if (!wait) {
            ctx.status(202).json(JSON.createObjectNode().put(ID, event.getId()).put(VERSION, event.getVersion())
                    .put("status", "accepted"));
            return;
        }
        long deadline = System.nanoTime() + waitTimeout.toNanos();
        while (System.nanoTime() < deadline) {
            Document stored = documents.findAny(event.getRepository(), event.getId()).orElse(null);
            if (stored != null && stored.getLong(VERSION) >= event.getVersion()) {
                if (Documents.live(stored)) {
                    ctx.status(visibleStatus).json(DocumentJson.of(stored, DocumentReads.prefix(event.getRepository()),
                            Caller.of(ctx).administrator()));
                } else {
                    ctx.status(204);
                }
                return;
            }
            if (!sleep(APPLIED_POLL)) {
                break;
            }
        }
        ctx.status(504).json(JSON.createObjectNode().put("error", "timeout").put(Correlation.FIELD, Correlation.id(ctx))
                .put(ID, event.getId())
                .put(VERSION, event.getVersion()).put("status", "accepted")
                .put("message", "appended to the documents topic, but not visible in MongoDB within " + waitTimeout
                        + "; it will be once the import job applies it"));
    }

    /** @return false when interrupted (the interrupt is kept) */
    private static boolean sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
