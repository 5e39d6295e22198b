package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadGrant;
import io.volumizer.domain.topology.Topology;
import io.volumizer.stores.DocumentFields;

/**
 * GET of a document, its children, its ancestors and its blob: in the repository of the path
 * ({@code /api/v1/{repository}/documents/...}), or in whichever repository holds it ({@code /api/v1/documents/...}),
 * where children are listed from every repository together. Every document in an answer says its repository, and
 * is one the request's {@link ReadGrant} lets its caller read.
 */
public final class DocumentReads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Documents documents;
    private final Children children;
    private final StoredBlobs blobs;
    private final Supplier<List<String>> allRepositories;
    private final int maxPageSize;
    private final Cursors cursors;

    /** @param allRepositories the repositories a route without one in its path reads */
    public DocumentReads(Documents documents, Children children, StoredBlobs blobs,
            Supplier<List<String>> allRepositories, int maxPageSize, Cursors cursors) {
        this.documents = documents;
        this.children = children;
        this.blobs = blobs;
        this.allRepositories = allRepositories;
        this.maxPageSize = maxPageSize;
        this.cursors = cursors;
    }

    /** The repositories a request reads: the one in its path, or else all of them. */
    private List<String> scope(Context ctx) {
        String repository = ctx.pathParamMap().get("repository");
        return repository != null ? List.of(Documents.checkRepository(repository)) : allRepositories.get();
    }

    public void get(Context ctx, ReadGrant grant) {
        new QueryParameters(ctx.queryParamMap(), Set.of());
        Document document = documents.require(scope(ctx), ctx.pathParam("id"), grant::allows);
        String repository = document.getString(REPOSITORY);
        String etag = DocumentJson.etag(document.getLong(VERSION));
        ctx.header("ETag", etag);
        if (etag.equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        ctx.json(DocumentJson.of(document, prefix(repository), grant.readsEverything()));
    }

    public void children(Context ctx, ReadGrant grant) {
        QueryParameters parameters = new QueryParameters(ctx.queryParamMap(), Set.of("limit", "cursor", "sort"));
        int limit = parameters.integer("limit", 20, 1, maxPageSize);
        Children.Sort sort = parameters.choice("sort", Children.Sort.class, Children.Sort.name);
        String caller = Caller.of(ctx).name();
        ArrayNode after = cursors.open(parameters.get("cursor"), caller, sort.name(), 2);
        List<String> repositories = scope(ctx);
        String id = ctx.pathParam("id");
        Document parent = documents.require(repositories, id, grant::allows);
        Children.Page page = children.list(repositories, parent, sort, limit, after, grant);
        ObjectNode body = JSON.createObjectNode().put(PARENT_ID, id);
        body.set("children", page.items());
        body.put("next", cursors.sealOrNull(caller, sort.name(), page.last()));
        if (page.shards() != null) {
            body.set("shards", page.shards());
        }
        ctx.json(body);
    }

    /**
     * The breadcrumb from the root down to the document's parent, each an indexed lookup by id: in the document's
     * repository first, then in the others (an archived statement's account is in a live repository). An ancestor
     * the caller may not read is left out; one no longer stored is its id alone.
     */
    public void ancestors(Context ctx, ReadGrant grant) {
        new QueryParameters(ctx.queryParamMap(), Set.of());
        Document document = documents.require(scope(ctx), ctx.pathParam("id"), grant::allows);
        List<String> lookIn = Topology.ownFirst(document.getString(REPOSITORY), allRepositories.get());
        ArrayNode ancestors = JSON.createArrayNode();
        for (String ancestorId : document.getList(ANCESTOR_IDS, String.class, List.of())) {
            Optional<Document> ancestor = documents.find(lookIn, ancestorId);
            if (ancestor.isPresent() && !grant.allows(ancestor.get())) {
                continue;
            }
            ObjectNode entry = ancestors.addObject().put(ID, ancestorId);
            ancestor.ifPresent(found -> entry.put(REPOSITORY, found.getString(REPOSITORY)).put(TYPE, found.getString(TYPE))
                    .put(NAME, found.getString(NAME)).put(TITLE, found.getString(TITLE)));
        }
        ObjectNode body = JSON.createObjectNode().put(ID, document.getString(KEY));
        body.set("ancestors", ancestors);
        ctx.json(body);
    }

    /** The binary: from the blob store when it is there, else rendered again from its generator key. */
    public void blob(Context ctx, ReadGrant grant) {
        new QueryParameters(ctx.queryParamMap(), Set.of());
        Document document = documents.require(scope(ctx), ctx.pathParam("id"), grant::allows);
        String repository = document.getString(REPOSITORY);
        Document blob = document.get(BLOB, Document.class);
        if (blob == null) {
            throw ApiException.notFound("document '" + document.getString(KEY) + "' has no blob");
        }
        byte[] bytes = blobs.bytes(repository, blob, document.getString(KEY));
        String mimeType = blob.getString(DocumentFields.Blob.MIME_TYPE);
        ctx.contentType(mimeType);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Content-Disposition", BlobTypes.disposition(mimeType, blob.getString(DocumentFields.Blob.FILENAME)));
        ctx.result(bytes);
    }

    static String prefix(String repository) {
        return "/api/v1/" + repository;
    }
}
