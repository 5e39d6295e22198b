package io.volumizer.api.internal;

import java.util.UUID;

import org.slf4j.MDC;

import io.javalin.http.Context;

/**
 * A request's correlation id: made when it arrives, sent back in header {@value #HEADER} and in every error body,
 * and put in the log lines written while it is served, so that a client's report finds its log line.
 */
public final class Correlation {

    /** The header that carries a request's correlation id. */
    public static final String HEADER = "X-Request-Id";
    /** The error bodies' field, and the log pattern's key ({@code %X{requestId}}). */
    public static final String FIELD = "correlationId";
    private static final String KEY = "requestId";

    private Correlation() {
    }

    /** The before-handler of every request. */
    public static void attach(Context ctx) {
        String id = UUID.randomUUID().toString();
        ctx.attribute(KEY, id);
        ctx.header(HEADER, id);
        MDC.put(KEY, id);
    }

    /** The after-handler of every request: the thread serves another next. */
    public static void detach(Context ctx) {
        MDC.remove(KEY);
    }

    /** The request's id, or "none" for one that failed before it had one. */
    public static String id(Context ctx) {
        String id = ctx.attribute(KEY);
        return id != null ? id : "none";
    }
}
