package io.volumizer.ops.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.volumizer.options.steps.Step;

/**
 * {@code bin/volumizer job}, with no Flink on the classpath (this module has none) and no cluster: a closed port
 * stands for the cluster, so a command that tried to reach it would fail otherwise than these expect.
 */
class JobsCommandTest {

    private static final String NO_CLUSTER = "http://127.0.0.1:1";

    private String out;
    private String err;

    @Test
    void thisModuleRunsWithoutFlink() {
        assertThatThrownBy(() -> Class.forName("org.apache.flink.api.common.JobExecutionResult"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @ParameterizedTest
    @CsvSource({"import, --resolved-folder-cache", "generate, --max-docs-per-second", "index, --index-group-id",
        "import-and-index, --parent-check-interval", "smoke, --records-per-second"})
    void aStepsHelpIsPrintedWithoutACluster(String step, String option) {
        int exitCode = run("--flink-rest", NO_CLUSTER, "submit", step, "--help");

        assertThat(exitCode).as(err).isZero();
        assertThat(out).contains("Usage: " + step, option);
    }

    @Test
    void anOptionOfAnotherStepIsOneLineThenTheStepsUsageAndNothingIsUploaded() {
        int exitCode = run("--flink-rest", NO_CLUSTER, "--jar", "/nonexistent.jar", "submit", "import-and-index",
                "--repository", "x");

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.lines().findFirst()).hasValue("job submit import-and-index: Unknown options: '--repository', 'x'");
        assertThat(err).contains("Usage: import-and-index").doesNotContain("Exception", "\tat ");
    }

    @Test
    void aValueTheStepRefusesNamesItsFlag() {
        int exitCode = run("--flink-rest", NO_CLUSTER, "--jar", "/nonexistent.jar", "submit", "generate",
                "--statements-per-account", "5000");

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.lines().findFirst())
                .hasValue("job submit generate: --statements-per-account must be within 0..1200, was 5000");
    }

    @Test
    void anUnknownStepNamesTheSteps() {
        int exitCode = run("--flink-rest", NO_CLUSTER, "submit", "imprt");

        assertThat(exitCode).isEqualTo(2);
        assertThat(err).contains("unknown step 'imprt'; steps: [generate, import, index, import-and-index, smoke, reindex, bulk-update, set-acl, import-csv]");
    }

    @Test
    void anUnreachableClusterIsOneLineAndExitCodeOne() {
        int exitCode = run("--flink-rest", NO_CLUSTER, "list");

        assertThat(exitCode).isEqualTo(1);
        assertThat(err.lines().count()).as(err).isEqualTo(1);
        assertThat(err).startsWith("list: Flink REST API at " + NO_CLUSTER + " unreachable");
    }

    @Test
    void theDefaultSearchClusterComesBeforeAStepsOwnOptionsSoTheirsWins() {
        JobsCommand command = new JobsCommand();
        command.defaultSearchUrl = "http://127.0.0.1:9201";

        assertThat(command.withDefaults("index", List.of("--search-url", "http://127.0.0.1:9200")))
                .containsExactly("--search-url", "http://127.0.0.1:9201", "--search-url", "http://127.0.0.1:9200");
        assertThat(Step.INDEX.arguments(command.withDefaults("index", List.of("--search-url", "http://127.0.0.1:9200"))))
                .containsSubsequence("--search-url", "http://127.0.0.1:9200").doesNotContain("http://127.0.0.1:9201");
        assertThat(command.withDefaults("smoke", List.of())).as("a step without a search cluster").isEmpty();
    }

    @Test
    void aResumeNamesEveryOptionItChanges() {
        List<String> ran = Step.IMPORT_AND_INDEX.arguments(List.of("--topics-of", "bank", "--search-url",
                "http://127.0.0.1:9201", "--parallelism", "2"));
        List<String> resumed = new ArrayList<>(ran);
        resumed.addAll(List.of("--parallelism", "4", "--search-url", "http://127.0.0.1:9201"));

        assertThat(JobsCommand.changes(Step.IMPORT_AND_INDEX, ran, resumed)).containsExactly("--parallelism 2 -> 4");
        assertThat(JobsCommand.changes(Step.IMPORT_AND_INDEX, ran, ran)).isEmpty();
    }

    private int run(String... args) {
        return capture(() -> JobsCommand.execute(args));
    }

    private int capture(Supplier<Integer> command) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
            return command.get();
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
            out = printed.toString(StandardCharsets.UTF_8);
            err = errors.toString(StandardCharsets.UTF_8);
        }
    }
}
