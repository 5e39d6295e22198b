package io.volumizer.api.commands;

/** A command request refused before anything runs: why, and the field at fault. */
public final class CommandRefusedException extends RuntimeException {

    /** Why a request was refused; the API answers each with its own status and error code. */
    public enum Reason { NOT_FOUND, CONFLICT, INVALID }

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
