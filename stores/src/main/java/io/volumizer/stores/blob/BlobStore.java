package io.volumizer.stores.blob;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Content-addressed blobs: stored once under their SHA-256, so that writing the same bytes again (a replay, two
 * documents sharing a file) is idempotent, and a reader never sees a partial blob. Layout, in every store:
 * {@code ab/cd/abcd…} under the store's root.
 */
public interface BlobStore extends AutoCloseable {

    /** Stores the bytes (unless already there) and returns their lower-case hex SHA-256. */
    String put(byte[] bytes);

    /** The bytes stored under a digest, if any. */
    Optional<byte[]> get(String digest);

    /** What this store is, for messages: a folder or an {@code s3://} location. */
    String location();

    @Override
    default void close() {
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The digest's place below a store's root; rejects anything but a SHA-256, so a digest never escapes it. */
    static String relativePath(String digest) {
        if (!digest.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a SHA-256 digest: " + digest);
        }
        return digest.substring(0, 2) + "/" + digest.substring(2, 4) + "/" + digest;
    }
}
