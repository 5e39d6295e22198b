package io.volumizer.domain.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A topology of one repository of the live profile, every document routed to it: its files' text is indexed. What
 * the benchmarks and tests of a live repository run with.
 */
public final class LiveTopology {

    private LiveTopology() {
    }

    /** The topology of {@code repository}, as a topology file holds it ({@link TopologyFile}). */
    public static String yaml(String repository) {
        return "repositories:\n  " + repository + ": {profile: live}\nrouting:\n  - to: " + repository + "\n";
    }

    /** The topology of {@code repository}, in a file of {@code run}'s, for the jobs (on this machine) to read. */
    public static Path file(String run, String repository) {
        try {
            return Files.writeString(Files.createTempFile(run + "-topology", ".yaml"), yaml(repository));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
