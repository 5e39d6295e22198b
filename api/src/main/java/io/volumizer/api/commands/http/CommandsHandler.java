package io.volumizer.api.commands.http;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;
import io.volumizer.api.commands.CommandRefusedException;
import io.volumizer.api.commands.CommandRequests;
import io.volumizer.api.commands.Commands;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.RequestJson;
import io.volumizer.api.internal.BackendUnavailableException;
import io.volumizer.api.reads.ReadGrant;
import io.volumizer.options.steps.SetAclOptions;

/**
 * Reindex and bulk commands over HTTP ({@link Commands} does the work): starting one answers 202 with its id, and
 * {@code GET /api/v1/bulk/{id}} its status, read from the stores, so it survives a restart of the API. Bodies are
 * read strictly: an unknown field is a 400 naming it.
 */
public final class CommandsHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> REINDEX_FIELDS = Set.of("deleteOld", "rangeSize");
    private static final Set<String> BULK_FIELDS = Set.of("action", "query", CommandRequests.ALL, "params");
    private static final Set<String> BULK_PARAMS = Set.of("properties", "document", "acl");

    private final Commands commands;
    private final RequestJson json;

    /** @param commands null when the API was started without a jobs jar: commands then answer 503 */
    public CommandsHandler(RequestJson json, Commands commands) {
        this.json = json;
        this.commands = commands;
    }

    public void reindex(Context ctx) throws IOException {
        JsonNode body = body(json, ctx, REINDEX_FIELDS);
        List<String> options = new ArrayList<>();
        JsonNode deleteOld = body.path("deleteOld");
        if (!deleteOld.isMissingNode() && !deleteOld.isBoolean()) {
            throw ApiException.badRequest("deleteOld", "deleteOld must be true or false");
        }
        if (deleteOld.asBoolean(false)) {
            options.add("--delete-old");
        }
        JsonNode rangeSize = body.path("rangeSize");
        if (!rangeSize.isMissingNode()) {
            if (!rangeSize.canConvertToInt() || rangeSize.asInt() < 1) {
                throw ApiException.badRequest("rangeSize", "rangeSize must be a positive integer");
            }
            options.addAll(List.of("--range-size", rangeSize.asText()));
        }
        String commandId = refusals(() -> commands().reindex(ctx.pathParam("repository"), options));
        accepted(ctx, commandId);
    }

    public void bulk(Context ctx) throws IOException {
        JsonNode body = body(json, ctx, BULK_FIELDS);
        JsonNode query = body.path("query");
        Map<String, String> filters = new LinkedHashMap<>();
        if (!query.isMissingNode()) {
            if (!query.isObject()) {
                throw ApiException.badRequest("query", "query must be an object of filters: q, type, state, from, to");
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = query.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> filter = fields.next();
                if (!filter.getValue().isTextual()) {
                    throw ApiException.badRequest("query." + filter.getKey(), "query." + filter.getKey() + " must be a string");
                }
                filters.put(filter.getKey(), filter.getValue().asText());
            }
        }
        JsonNode params = body.path("params");
        if (!params.isMissingNode()) {
            strict(params, BULK_PARAMS, "params.");
        }
        JsonNode all = body.path(CommandRequests.ALL);
        if (!all.isMissingNode() && !all.isBoolean()) {
            throw ApiException.badRequest(CommandRequests.ALL, "all must be true or false");
        }
        String action = body.path("action").asText(null);
        if (SetAclOptions.ACTION.equals(action)) {
            if (!filters.isEmpty() || !all.isMissingNode() || params.has("properties")) {
                throw ApiException.badRequest("action", "setAcl takes params.document and params.acl: the folder, and "
                        + "everything below it, is its selection (no query, all or properties)");
            }
            accepted(ctx, refusals(() -> commands().setAcl(ctx.pathParam("repository"), params.path("document").asText(null),
                    params.get("acl"))));
            return;
        }
        if (params.has("document") || params.has("acl")) {
            throw ApiException.badRequest("params", "params.document and params.acl are setAcl's");
        }
        String commandId = refusals(() -> commands().bulk(ctx.pathParam("repository"), action,
                filters, all.asBoolean(false), params.get("properties")));
        accepted(ctx, commandId);
    }

    public void status(Context ctx, ReadGrant grant) throws IOException {
        ctx.json(refusals(() -> commands().status(ctx.pathParam("commandId"), grant::allows)));
    }

    public void abort(Context ctx) throws IOException {
        ctx.json(refusals(() -> commands().abort(ctx.pathParam("commandId"))));
    }

    public void resume(Context ctx) throws IOException {
        ctx.status(202).json(refusals(() -> commands().resume(ctx.pathParam("commandId"))));
    }

    public void retry(Context ctx) throws IOException {
        ctx.status(202).json(refusals(() -> commands().retry(ctx.pathParam("commandId"))));
    }

    private Commands commands() {
        if (commands == null) {
            throw new ApiException(503, "unavailable", null, "commands need the API to be started with --jobs-jar");
        }
        return commands;
    }

    private static void accepted(Context ctx, String commandId) {
        ObjectNode answer = JSON.createObjectNode().put("commandId", commandId).put("status", "/api/v1/bulk/" + commandId);
        ctx.status(202).header("Location", "/api/v1/bulk/" + commandId).json(answer);
    }

    /** Work whose refusals become the API's errors. */
    private interface Work<T> {
        T run() throws Exception;
    }

    private static <T> T refusals(Work<T> work) throws IOException {
        try {
            return work.run();
        } catch (CommandRefusedException e) {
            throw switch (e.reason()) {
                case NOT_FOUND -> ApiException.notFound(e.field(), e.getMessage());
                case CONFLICT -> ApiException.conflict(e.field(), e.getMessage());
                case INVALID -> ApiException.badRequest(e.field(), e.getMessage());
            };
        } catch (IOException e) {
            // The stores answer through drivers that throw their own exceptions: an IOException is the cluster's.
            throw new BackendUnavailableException("flink", e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** The request's body: a JSON object of {@code fields} only (400 naming another). */
    static JsonNode body(RequestJson json, Context ctx, Set<String> fields) {
        JsonNode body = json.object(ctx);
        strict(body, fields, "");
        return body;
    }

    private static void strict(JsonNode object, Set<String> fields, String prefix) {
        if (!object.isObject()) {
            throw ApiException.badRequest(prefix.isEmpty() ? null : prefix.substring(0, prefix.length() - 1),
                    "expected a JSON object");
        }
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw ApiException.badRequest(prefix + name, "unknown field '" + prefix + name + "'; fields: "
                        + String.join(", ", fields.stream().sorted().toList()));
            }
        }
    }
}
