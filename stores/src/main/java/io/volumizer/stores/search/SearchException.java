package io.volumizer.stores.search;

import java.io.IOException;

/**
 * A request the search engine did not carry out, in terms of no engine in particular: what a caller decides on
 * (answer 404, 400 or 503, count nothing, retry) is its {@link Kind}. An {@link IOException}, as the failures of the
 * clients behind it are.
 */
public final class SearchException extends IOException {

    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** No such index, alias or document. */
        NOT_FOUND,
        /** The engine refused the request as malformed: a query it cannot parse, say. */
        INVALID,
        /** The engine answered that it cannot serve now: overloaded, a shard not started, a node gone. */
        UNAVAILABLE,
        /** No answer: the connection was refused or broke, or the answer did not come in time. */
        UNREACHABLE,
        /** The request was larger than the engine takes (HTTP 413): the same request is refused every time. */
        TOO_LARGE,
        /** Any other error the engine answered with. */
        FAILED
    }

    private final Kind kind;
    private final String reason;

    /**
     * @param message the client's whole message (request, status, answer), for logs
     * @param reason  the engine's own explanation, for people
     */
    public SearchException(Kind kind, String message, String reason, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.reason = reason;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the engine could not serve (unavailable or unreachable): worth a retry, and no request's fault. */
    public boolean isServiceFault() {
        return kind == Kind.UNAVAILABLE || kind == Kind.UNREACHABLE;
    }

    /** The engine's own explanation: for a refused query, what it could not parse. */
    public String reason() {
        return reason;
    }
}
