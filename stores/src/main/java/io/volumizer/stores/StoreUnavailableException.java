package io.volumizer.stores;

/** A store stayed unreachable or overloaded through every retry of its backoff. */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
