package io.volumizer.benchmarks.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A topology of one repository of the live profile, every document routed to it: its files' text is indexed. */
public final class LiveTopology {

    private LiveTopology() {
    }

    /** The topology of {@code repository}, in a file of {@code run}'s, for the jobs (on this machine) to read. */
    public static Path file(String run, String repository) {
        try {
            Path file = Files.createTempFile(run + "-topology", ".yaml");
            Files.writeString(file, "repositories:\n  " + repository + ": {profile: live}\nrouting:\n  - to: " + repository + "\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
