package io.volumizer.stores.blob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * Blobs on a file system (local, or shared by every TaskManager and the API): each is written to a temporary file
 * and moved into place, so concurrent writes of the same bytes are harmless and a reader never sees a partial blob.
 */
public final class FileBlobStore implements BlobStore {

    private final Path root;

    public FileBlobStore(Path root) {
        this.root = root.toAbsolutePath();
    }

    @Override
    public String put(byte[] bytes) {
        String digest = BlobStore.sha256(bytes);
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

    @Override
    public Optional<byte[]> get(String digest) {
        try {
            Path path = path(digest);
            return Files.exists(path) ? Optional.of(Files.readAllBytes(path)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read blob " + digest + " under " + root, e);
        }
    }

    @Override
    public String location() {
        return root.toString();
    }

    Path path(String digest) {
        return root.resolve(BlobStore.relativePath(digest));
    }
}
