package io.volumizer.jobs.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

class JobsCommandTest {

    @Test
    void aStepsHelpIsPrintedHereWithoutAClusterOrAJar() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int exitCode;
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            exitCode = new CommandLine(new JobsCommand()).setUnmatchedOptionsArePositionalParams(true)
                    .execute("--flink-rest", "http://127.0.0.1:1", "submit", "import", "--help");
        } finally {
            System.setOut(stdout);
        }
        assertThat(exitCode).isZero();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("--parent-check-interval", "--resolved-folder-cache");
    }
}
