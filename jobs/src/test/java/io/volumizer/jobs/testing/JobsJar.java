package io.volumizer.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The shaded jobs jar this build made, which the integration tests upload to the session cluster. */
public final class JobsJar {

    private JobsJar() {
    }

    public static Path path() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("volumizer-jobs-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().startsWith("original-"))
                    .findFirst().orElseThrow(() -> new IllegalStateException("jobs jar not built in target/"));
        }
    }
}
