package io.volumizer.api.commands;

/** A command request refused before anything runs: what was wrong, as an HTTP status and the field at fault. */
public final class CommandRefusedException extends RuntimeException {

    /** Why a request was refused: HTTP's words for it. */
    public enum Reason {
        NOT_FOUND(404, "not_found"), CONFLICT(409, "conflict"), INVALID(400, "bad_request");

        private final int status;
        private final String error;

        Reason(int status, String error) {
            this.status = status;
            this.error = error;
        }

        public int status() {
            return status;
        }

        public String error() {
            return error;
        }
    }

    private final Reason reason;
    private final String field;

    CommandRefusedException(Reason reason, String field, String message) {
        super(message);
        this.reason = reason;
        this.field = field;
    }

    public Reason reason() {
        return reason;
    }

    /** The request's field at fault, or null. */
    public String field() {
        return field;
    }
}
