package io.volumizer.api.internal;

import java.util.List;
import java.util.Map;

/**
 * A request the API refuses, with the HTTP status, a short machine-readable error code, the input field at fault
 * (null when it is not one field) and a message for people.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A caller past its share of the places of its class of requests (Admission). */
    public static final String TOO_MANY_REQUESTS = "too_many_requests";

    /**
     * Every error code, by the status it comes with: what a client may rely on (the OpenAPI document's Error schema
     * lists them). The first of each status is its general one.
     */
    public static final Map<Integer, List<String>> CODES = Map.ofEntries(
            Map.entry(400, List.of("invalid", "invalid_json", "invalid_cursor", "query_too_expensive")),
            Map.entry(401, List.of("unauthorized")),
            Map.entry(403, List.of("forbidden")),
            Map.entry(404, List.of("not_found")),
            Map.entry(405, List.of("method_not_allowed")),
            Map.entry(408, List.of("too_slow")),
            Map.entry(409, List.of("conflict", "folder_needs_recursive")),
            Map.entry(412, List.of("precondition_failed")),
            Map.entry(413, List.of("payload_too_large", "folder_too_large")),
            Map.entry(429, List.of("too_many_failures", TOO_MANY_REQUESTS)),
            Map.entry(500, List.of("internal")),
            Map.entry(503, List.of("unavailable", "overloaded")),
            Map.entry(504, List.of("timeout")));

    /** A status's general code: "refused" for a status no route answers on its own. */
    public static String codeOf(int status) {
        return CODES.containsKey(status) ? CODES.get(status).get(0) : "refused";
    }

    private final int status;
    private final String error;
    private final String field;

    public ApiException(int status, String error, String field, String message) {
        super(message);
        if (!CODES.getOrDefault(status, List.of()).contains(error)) {
            throw new IllegalArgumentException("error code '" + error + "' is not one of status " + status + "'s: "
                    + CODES.get(status));
        }
        this.status = status;
        this.error = error;
        this.field = field;
    }

    public static ApiException badRequest(String field, String message) {
        return new ApiException(400, "invalid", field, message);
    }

    public static ApiException notFound(String message) {
        return notFound(null, message);
    }

    public static ApiException notFound(String field, String message) {
        return new ApiException(404, "not_found", field, message);
    }

    public static ApiException conflict(String field, String message) {
        return new ApiException(409, "conflict", field, message);
    }

    public int status() {
        return status;
    }

    public String error() {
        return error;
    }

    public String field() {
        return field;
    }
}
