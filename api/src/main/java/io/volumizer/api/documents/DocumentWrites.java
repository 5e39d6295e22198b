package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.Optional;
import java.util.Set;

import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.http.Context;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Correlation;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.internal.QueryParameters;
import io.volumizer.api.internal.RequestBodies;
import io.volumizer.api.internal.RequestJson;
import io.volumizer.api.reads.Caller;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.stores.blob.Uploads;

/**
 * Writes over HTTP ({@link DocumentWriteService} does the work): a request is answered 202 once its event is on
 * the documents topic. With {@code ?wait=true} the answer waits until MongoDB shows the new version, or 504 after
 * the configured timeout.
 */
public final class DocumentWrites {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WAIT = "wait";
    private static final Set<String> PARAMETERS = Set.of(WAIT);
    private static final Set<String> DELETE_PARAMETERS = Set.of(WAIT, RecursiveDelete.RECURSIVE);

    private final DocumentWriteService writes;
    private final AppliedWrites applied;
    private final RequestJson json;
    private final long maxUploadBytes;

    /** @param json how a document's JSON is read, and its largest size */
    public DocumentWrites(DocumentWriteService writes, RequestJson json, long maxUploadBytes) {
        this.writes = writes;
        this.applied = writes.applied();
        this.json = json;
        this.maxUploadBytes = maxUploadBytes;
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

    /** Creates a document: the answer's Location names the repository the topology's rules routed it to. */
    public void create(Context ctx) {
        Target target = Target.of(ctx);
        Caller caller = Caller.of(ctx);
        DocumentEvent event = writes.create(caller, target.repository(), body(ctx));
        respond(ctx, event, target.waitForMongoDb(), 201);
    }

    public void update(Context ctx) {
        Target target = Target.of(ctx);
        DocumentEvent event = writes.update(Caller.of(ctx), target.repository(), ctx.pathParam("id"),
                ctx.header("If-Match"), () -> body(ctx));
        respond(ctx, event, target.waitForMongoDb(), 200);
    }

    public void delete(Context ctx) {
        Target target = Target.of(ctx, DELETE_PARAMETERS);
        DocumentEvent event = writes.delete(Caller.of(ctx), target.repository(), ctx.pathParam("id"),
                ctx.header("If-Match"), () -> target.parameters().bool(RecursiveDelete.RECURSIVE));
        respond(ctx, event, target.waitForMongoDb(), 204);
    }

    /** The request's document and file, each read under its cap, the file described but not yet stored. */
    private DocumentBody body(Context ctx) {
        if (!ctx.isMultipartFormData()) {
            return new DocumentBody(DocumentInput.parse(json, RequestBodies.read(ctx, json.maxBytes())), null, null);
        }
        MultipartDocument form = MultipartDocument.read(ctx, json, maxUploadBytes);
        if (form.json() == null) {
            throw ApiException.badRequest(MultipartDocument.DOCUMENT_PART, "a multipart request needs a '"
                    + MultipartDocument.DOCUMENT_PART + "' part holding the JSON");
        }
        DocumentInput input = DocumentInput.parse(json, form.json());
        return form.file() == null ? new DocumentBody(input, null, null)
                : new DocumentBody(input, form.file(), Uploads.describe(form.file(), form.filename()));
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
        Optional<Document> stored = applied.await(event);
        if (stored.isPresent()) {
            if (Documents.live(stored.get())) {
                ctx.status(visibleStatus).json(DocumentJson.of(stored.get(), DocumentReads.prefix(event.getRepository()),
                        Caller.of(ctx).administrator()));
            } else {
                ctx.status(204);
            }
            return;
        }
        ctx.status(504).json(JSON.createObjectNode().put("error", "timeout").put(Correlation.FIELD, Correlation.id(ctx))
                .put(ID, event.getId())
                .put(VERSION, event.getVersion()).put("status", "accepted")
                .put("message", "appended to the documents topic, but not visible in MongoDB within " + applied.timeout()
                        + "; it will be once the import job applies it"));
    }
}
