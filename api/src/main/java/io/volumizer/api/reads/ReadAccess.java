package io.volumizer.api.reads;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.volumizer.api.internal.ApiMetrics;

/**
 * The one way in for the API's reads: every route that answers with a document or a part of one (a document, its
 * children, ancestors or blob, search hits and aggregations, a command's status) is registered through
 * {@link #reads}, and its handler is given the request's {@link ReadGrant}: what the request's authenticated
 * {@link Caller} may read ({@link ReadPolicy}) is decided here alone.
 */
public final class ReadAccess {

    /** A read route's handler: the request, and what its caller may read. */
    @FunctionalInterface
    public interface ReadHandler {
        void handle(Context ctx, ReadGrant grant) throws Exception;
    }

    private final ReadPolicy policy;
    private final ApiMetrics metrics;

    /** @param metrics where each application of a grant is counted, by route */
    public ReadAccess(ReadPolicy policy, ApiMetrics metrics) {
        this.policy = policy;
        this.metrics = metrics;
    }

    /** The route's handler: {@code handler}, given the grant of the request's caller on the route. */
    public Handler reads(ReadHandler handler) {
        return ctx -> handler.handle(ctx, new ReadGrant(Caller.of(ctx), ctx.endpointHandlerPath(), policy, metrics));
    }
}
