package io.volumizer.api.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.ops.services.LocalServices;

/**
 * What {@code bin/volumizer reindex demo} prints, run as a user runs it (after a small demo, if none was run): the
 * command it started, its progress and its result, and nothing from the libraries, whose logs go to the state
 * folder's {@code logs/volumizer.log}; no colour codes, since its output is not a terminal.
 */
class ReindexTerminalIT {

    private static final Pattern PROGRESS = Pattern.compile("\\[[#.]{20}\\] +\\d+%  .*");
    /** Lines besides the progress and the result: the command started, and room for a real warning or two. */
    private static final int MAX_OTHER_LINES = 3;

    private final LocalServices services = LocalServices.ofThisCheckout();

    @Test
    void reindexPrintsItsProgressAndItsResultOnly() throws Exception {
        if (!Files.exists(services.state().resolve("demo.env"))) {
            services.volumizer(Map.of(), List.of("demo", "--customers", "5"));
        }
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        String printed = services.volumizer(Map.of(), List.of("reindex", "demo", "--delete-old"));

        assertThat(printed).as("colour codes").doesNotContain("\u001B[");
        List<String> lines = printed.lines().toList();
        int result = lines.indexOf("{");
        assertThat(result).as("the result, after the progress:%n%s", printed).isPositive();
        JsonNode status = new ObjectMapper().readTree(String.join("\n", lines.subList(result, lines.size())));
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        List<String> others = lines.subList(0, result).stream().filter(line -> !PROGRESS.matcher(line).matches()).toList();
        assertThat(others).as("lines besides the progress and the result").hasSizeLessThanOrEqualTo(MAX_OTHER_LINES)
                .anyMatch(line -> line.startsWith("reindex of demo: command reindex-demo-"));
        Path libraryLog = services.state().resolve("logs/volumizer.log");
        assertThat(Files.getLastModifiedTime(libraryLog).toInstant()).as("the libraries' log written").isAfterOrEqualTo(started);
    }
}
