package io.volumizer.api.internal;

/** A backend (MongoDB, Elasticsearch, Kafka, the schema registry) cannot be reached: answered 503. */
public final class BackendUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String backend;

    public BackendUnavailableException(String backend, Throwable cause) {
        super(backend + " unavailable: " + cause.getMessage(), cause);
        this.backend = backend;
    }

    public String backend() {
        return backend;
    }
}
