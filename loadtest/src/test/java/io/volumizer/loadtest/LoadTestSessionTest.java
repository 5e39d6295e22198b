package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.loadtest.SessionPlan.AwaitReindex;
import io.volumizer.loadtest.SessionPlan.Compare;
import io.volumizer.loadtest.SessionPlan.Run;
import io.volumizer.loadtest.SessionPlan.StartJob;
import io.volumizer.loadtest.SessionPlan.StartReindex;
import io.volumizer.loadtest.SessionPlan.WarmUp;
import io.volumizer.ops.demo.DemoRecord;
import io.volumizer.options.Options;
import io.volumizer.options.steps.GenerateOptions;
import io.volumizer.options.steps.Step;
import picocli.CommandLine;

/** What a load test session does for each simulation, and what it refuses before it starts anything; no services. */
class LoadTestSessionTest {

    private static final GeneratorSettings DEMO = new GeneratorSettings(7, 500, 12, 1.5, YearMonth.of(2024, 6), "demo");
    private static final StartJob IMPORTING = new StartJob(Step.IMPORT_AND_INDEX, List.of("--group-id", "volumizer-demo-import"));

    @TempDir
    Path state;

    @Test
    void readsRunAlone() {
        assertThat(plan("navigation")).containsExactly(new Run("navigation", ""));
        assertThat(plan("search")).containsExactly(new Run("search", ""));
    }

    @Test
    void writesRunWithTheImportFromTheDemosConsumerGroup() {
        assertThat(plan("crud")).containsExactly(IMPORTING, new Run("crud", ""));
        assertThat(plan("smoke")).containsExactly(IMPORTING, new Run("smoke", ""));
    }

    @Test
    void mixedRunsWithoutThenWithAThrottledImportOfMoreCustomersAndComparesTheReads() throws Exception {
        List<SessionPlan.Action> plan = plan("mixed");

        assertThat(plan).hasSize(5);
        assertThat(plan.subList(0, 2)).containsExactly(IMPORTING, new Run("mixed", "baseline"));
        assertThat(plan.subList(3, 5)).containsExactly(new Run("mixed", "importing"),
                new Compare("mixed-baseline", "mixed-importing", SessionPlan.MIXED_READS, "mixed"));
        StartJob generate = (StartJob) plan.get(2);
        assertThat(generate.step()).isEqualTo(Step.GENERATE);
        GenerateOptions options = (GenerateOptions) Step.GENERATE.parse(generate.arguments());
        assertThat(options.settings()).isEqualTo(new GeneratorSettings(7, 100_500, 12, 1.5, YearMonth.of(2024, 6), "demo"));
        assertThat(options.fromCustomer).isEqualTo(500);
        assertThat(options.maxDocsPerSecond).isEqualTo(250);
    }

    @Test
    void reindexRunsNavigationWarmedUpThenWhileTheDemoRepositoryIsReindexed() {
        assertThat(plan("reindex")).containsExactly(new WarmUp("navigation"), new Run("navigation", "baseline"),
                new StartReindex("demo"), new Run("navigation", "reindexing"), new AwaitReindex(),
                new Compare("navigation-baseline", "navigation-reindexing", List.of(), "navigation-reindex"));
    }

    @Test
    void theFeedersGetTheDemosRun() {
        GeneratorOptions fed = new GeneratorOptions();
        new CommandLine(fed).parseArgs(SessionPlan.runArguments(DEMO).toArray(String[]::new));

        assertThat(fed.settings()).isEqualTo(DEMO);
    }

    @Test
    void aWrongRunOptionIsRefusedBeforeAnythingElse() {
        Result result = session("smoke", "--rate", "0");

        assertThat(result.exitCode).isEqualTo(2);
        assertThat(result.err).contains("--rate and --duration must be positive");
        assertThat(session("soak").err).contains("unknown simulation 'soak'");
    }

    @Test
    void withoutADemoRecordItSaysToRunTheDemo() {
        Result result = session("navigation", "--rate", "5");

        assertThat(result.exitCode).isEqualTo(1);
        assertThat(result.err).contains("no demo import recorded in " + state.resolve("demo.env"), "run bin/volumizer demo first");
    }

    @Test
    void withoutTheApiItSaysToStartIt() throws Exception {
        new DemoRecord(DEMO, 60_000, "volumizer-demo-import", "file:/import", "file:/index").write(state.resolve("demo.env"));

        Result result = session("navigation");

        assertThat(result.exitCode).isEqualTo(1);
        assertThat(result.err).contains("the API is not ready at http://127.0.0.1:1/health/ready", "bin/volumizer api start");
    }

    private static List<SessionPlan.Action> plan(String simulation) {
        return SessionPlan.plan(simulation, DEMO, "volumizer-demo-import", 250, 100_000);
    }

    private record Result(int exitCode, String err) {
    }

    private Result session(String... args) {
        List<String> line = new ArrayList<>(List.of("--jar", "jobs.jar", "--api", "http://127.0.0.1:1",
                "--oidc-issuer", "http://127.0.0.1:1/realms/volumizer",
                "--record", state.resolve("demo.env").toString(), "--results", state.resolve("results").toString()));
        line.addAll(List.of(args));
        StringWriter err = new StringWriter();
        CommandLine command = LoadTestSession.commandLine();
        command.setErr(new PrintWriter(err, true));
        int exitCode = command.execute(line.toArray(String[]::new));
        return new Result(exitCode, err.toString());
    }
}
