package io.volumizer.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The shaded jobs jar this build made, which the integration tests upload to the session cluster. */
public final class JobsJar {

    private JobsJar() {
    }

    /** In {@code target/} of the jobs module, whichever module's tests ask (Maven runs each in its own folder). */
    public static Path path() throws IOException {
        Path target = Files.exists(Path.of("src", "main", "java", "io", "volumizer", "jobs"))
                ? Path.of("target") : Path.of("..", "jobs", "target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches("volumizer-jobs-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().startsWith("original-"))
                    // nor the test fixtures' jar, which the same build makes next to it
                    .filter(p -> !p.getFileName().toString().endsWith("-tests.jar"))
                    .findFirst().orElseThrow(() -> new IllegalStateException("jobs jar not built in target/"));
        }
    }
}
