package io.volumizer.sinks.blob;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

/**
 * Content-addressed blobs on a file system: a blob is stored once under its SHA-256 ({@code ab/cd/abcd…}),
 * written to a temporary file and moved into place, so concurrent and repeated writes of the same bytes are
 * idempotent and a reader never sees a partial blob.
 */
public final class FileBlobStore implements Serializable {

    private static final long serialVersionUID = 1L;
    private final String root;

    public FileBlobStore(Path root) {
        this.root = root.toAbsolutePath().toString();
    }

    /** Stores the bytes (unless already there) and returns their lower-case hex SHA-256. */
    public String put(byte[] bytes) {
        String digest = sha256(bytes);
        Path target = path(digest);
        if (Files.exists(target)) {
            return digest;
        }
        try {
            Files.createDirectories(target.getParent());
            Path temporary = target.resolveSibling(digest + "." + UUID.randomUUID() + ".part");
            Files.write(temporary, bytes);
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                Files.deleteIfExists(temporary);
            }
            return digest;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store blob " + digest + " under " + root, e);
        }
    }

    public Optional<byte[]> get(String digest) {
        if (!digest.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a SHA-256 digest: " + digest);
        }
        try {
            Path path = path(digest);
            return Files.exists(path) ? Optional.of(Files.readAllBytes(path)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read blob " + digest, e);
        }
    }

    Path path(String digest) {
        return Path.of(root, digest.substring(0, 2), digest.substring(2, 4), digest);
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
