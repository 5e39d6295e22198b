package io.volumizer.api.documents;

import static io.volumizer.sinks.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.sinks.DocumentFields.BLOB;
import static io.volumizer.sinks.DocumentFields.ID;
import static io.volumizer.sinks.DocumentFields.KEY;
import static io.volumizer.sinks.DocumentFields.NAME;
import static io.volumizer.sinks.DocumentFields.PARENT_ID;
import static io.volumizer.sinks.DocumentFields.TITLE;
import static io.volumizer.sinks.DocumentFields.TYPE;
import static io.volumizer.sinks.DocumentFields.VERSION;

import java.util.List;
import java.util.Set;

import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.Renditions;
import io.volumizer.sinks.blob.BlobStore;
import io.volumizer.sinks.DocumentFields;

/** GET of a document, its children, its ancestors and its blob. */
public final class DocumentReads {

    public static final String UPLOADED_BLOB_PREFIX = "sha256:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Documents documents;
    private final Children children;
    private final BlobStore blobs;
    private final int maxPageSize;

    public DocumentReads(Documents documents, Children children, BlobStore blobs, int maxPageSize) {
        this.documents = documents;
        this.children = children;
        this.blobs = blobs;
        this.maxPageSize = maxPageSize;
    }

    public void get(Context ctx) {
        new QueryParameters(ctx.queryParamMap(), Set.of());
        String repository = ctx.pathParam("repository");
        Document document = documents.require(repository, ctx.pathParam("id"));
        String etag = DocumentJson.etag(document.getLong(VERSION));
        ctx.header("ETag", etag);
        if (etag.equals(ctx.header("If-None-Match"))) {
            ctx.status(304);
            return;
        }
        ctx.json(DocumentJson.of(document, prefix(repository)));
    }

    public void children(Context ctx) {
        QueryParameters parameters = new QueryParameters(ctx.queryParamMap(), Set.of("limit", "cursor", "sort"));
        int limit = parameters.integer("limit", 20, 1, maxPageSize);
        Children.Sort sort = parameters.choice("sort", Children.Sort.class, Children.Sort.name);
        ArrayNode after = Cursors.decode(parameters.get("cursor"), sort.name(), 2);
        String repository = ctx.pathParam("repository");
        String id = ctx.pathParam("id");
        documents.require(repository, id);
        Children.Page page = children.list(repository, id, sort, limit, after);
        ObjectNode body = JSON.createObjectNode().put(PARENT_ID, id);
        body.set("children", page.items());
        body.put("next", page.next());
        ctx.json(body);
    }

    /** The breadcrumb from the root down to the document's parent; each is an indexed lookup by id. */
    public void ancestors(Context ctx) {
        new QueryParameters(ctx.queryParamMap(), Set.of());
        String repository = ctx.pathParam("repository");
        Document document = documents.require(repository, ctx.pathParam("id"));
        ArrayNode ancestors = JSON.createArrayNode();
        for (String ancestorId : document.getList(ANCESTOR_IDS, String.class, List.of())) {
            Document ancestor = documents.find(repository, ancestorId).orElse(null);
            ObjectNode entry = ancestors.addObject().put(ID, ancestorId);
            if (ancestor != null) {
                entry.put(TYPE, ancestor.getString(TYPE)).put(NAME, ancestor.getString(NAME))
                        .put(TITLE, ancestor.getString(TITLE));
            }
        }
        ObjectNode body = JSON.createObjectNode().put(ID, document.getString(KEY));
        body.set("ancestors", ancestors);
        ctx.json(body);
    }

    /** The binary: from the blob store when it is there, else rendered again from its generator key. */
    public void blob(Context ctx) {
        new QueryParameters(ctx.queryParamMap(), Set.of());
        String repository = ctx.pathParam("repository");
        Document document = documents.require(repository, ctx.pathParam("id"));
        Document blob = document.get(BLOB, Document.class);
        if (blob == null) {
            throw ApiException.notFound("document '" + document.getString(KEY) + "' has no blob");
        }
        String key = blob.getString(DocumentFields.Blob.KEY);
        byte[] bytes;
        String digest = blob.getString(DocumentFields.Blob.DIGEST);
        if (key.startsWith(UPLOADED_BLOB_PREFIX)) {
            bytes = blobs.get(key.substring(UPLOADED_BLOB_PREFIX.length())).orElseThrow(() -> ApiException.notFound(
                    "blob " + key + " of document '" + document.getString(KEY) + "' is not in the blob store"));
        } else {
            // Stored by an import with a blob store, or else rendered again: the same bytes either way.
            bytes = (digest == null ? java.util.Optional.<byte[]>empty() : blobs.get(digest))
                    .orElseGet(() -> Renditions.render(BlobKey.parse(key, repository)));
        }
        ctx.contentType(blob.getString(DocumentFields.Blob.MIME_TYPE));
        ctx.header("Content-Disposition", "inline; filename=\"" + blob.getString(DocumentFields.Blob.FILENAME).replace("\"", "") + "\"");
        ctx.result(bytes);
    }

    static String prefix(String repository) {
        return "/api/v1/" + repository;
    }
}
