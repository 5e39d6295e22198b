package io.volumizer.api.internal;

/**
 * A request the API refuses, with the HTTP status, a short machine-readable error code, the input field at fault
 * (null when it is not one field) and a message for people.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String error;
    private final String field;

    public ApiException(int status, String error, String field, String message) {
        super(message);
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
