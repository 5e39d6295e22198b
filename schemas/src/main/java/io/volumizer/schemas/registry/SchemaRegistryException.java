package io.volumizer.schemas.registry;

/** The registry refused a request or could not be reached; {@link #status()} is 0 when no HTTP answer came. */
public class SchemaRegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final int status;

    public SchemaRegistryException(int status, String message) {
        super(message);
        this.status = status;
    }

    public SchemaRegistryException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
