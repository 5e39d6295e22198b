package io.volumizer.ops.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The checkpoints Flink kept of a step's runs (retained on cancellation, on failure, and when the JobManager is
 * lost): {@code <folder>/<job id>/chk-<n>/_metadata}, one folder per job of the step. Read from the file system the
 * cluster writes them to, which a local cluster shares with its client; on S3 (EKS) the Flink operator's last-state
 * upgrade does this instead.
 */
public final class RetainedCheckpoints {

    private RetainedCheckpoints() {
    }

    /** The newest completed checkpoint under {@code folder} (a {@code file:} URI or a path), as a restore path. */
    public static Optional<String> newest(String folder) {
        Path root = folder.startsWith("file:") ? Path.of(URI.create(folder)) : Path.of(folder);
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> metadata = Files.find(root, 3, (path, attributes) -> path.getFileName().toString().equals("_metadata")
                && path.getParent().getFileName().toString().startsWith("chk-"))) {
            return metadata.max(Comparator.comparing(RetainedCheckpoints::modified))
                    .map(path -> path.getParent().toUri().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the checkpoints under " + root, e);
        }
    }

    private static FileTime modified(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A local path of {@code folder}, for messages. */
    public static boolean isLocal(String folder) {
        return folder.startsWith("file:") || folder.startsWith("/");
    }
}
