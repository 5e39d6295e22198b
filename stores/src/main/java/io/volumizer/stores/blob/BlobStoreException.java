package io.volumizer.stores.blob;

/** A blob store that could not be read or written (unreachable, refused, bucket missing), naming the object. */
public final class BlobStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BlobStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
