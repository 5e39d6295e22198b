package io.volumizer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The one command line: its subcommands, and the defaults it gives them on the local services. */
class VolumizerTest {

    private static final Map<String, String> ENDPOINTS = Map.of("volumizer.demo.repository", "showcase",
            "volumizer.search.url", "http://127.0.0.1:9201", "volumizer.root", "/checkout",
            "volumizer.flink.rest", "http://127.0.0.1:18081");

    @AfterEach
    void clear() {
        ENDPOINTS.keySet().forEach(System::clearProperty);
    }

    @Test
    void everyToolIsASubcommandOfTheRoot() {
        assertThat(Volumizer.commandLine().getSubcommands()).containsKeys("demo", "job", "throttle", "import-csv",
                "commands", "api", "token", "loadtest", "generate", "plan", "conventions", "report", "bench", "campaign");
    }

    @Test
    void aBenchSuiteTakesItsOwnDefaultsThenTheLocalOnes() {
        ENDPOINTS.forEach(System::setProperty);

        CommandSpec pipeline = parsed("bench", "pipeline");
        CommandSpec given = parsed("bench", "pipeline", "--customers", "300");

        assertThat(value(pipeline, "--repository")).isEqualTo("bench"); // the suite's, over the demo's
        assertThat(value(pipeline, "--flink-rest")).isEqualTo("http://127.0.0.1:18081");
        assertThat(String.valueOf(value(pipeline, "--jar"))).matches("/checkout/jobs/target/volumizer-jobs-.+\\.jar");
        assertThat(String.valueOf(value(pipeline, "--results"))).isEqualTo("/checkout/benchmarks/results");
        assertThat(value(given, "--customers")).isEqualTo(300L);
    }

    @Test
    void benchSaysWhatASuiteNeedsOfTheMachine() {
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine root = Volumizer.commandLine();
        root.setOut(new java.io.PrintWriter(out, true));

        assertThat(root.execute("bench", "--needs", "text")).isZero();
        assertThat(out.toString().lines()).containsExactly("offline", "tools pdftotext:poppler-utils");
    }

    @Test
    void theDemosSettingsAndTheEndpointsAreTheDefaultsAndAnOptionGivenWins() {
        ENDPOINTS.forEach(System::setProperty);

        CommandSpec demo = parsed("demo");
        CommandSpec given = parsed("demo", "--repository", "other", "--checkpoint-interval", "PT9S");

        assertThat(value(demo, "--repository")).isEqualTo("showcase");
        assertThat(value(demo, "--topics-of")).isEqualTo("showcase");
        assertThat(value(demo, "--checkpoint-interval")).isEqualTo(Duration.ofSeconds(2)); // over the option's own PT5S
        assertThat(value(demo, "--search-url")).isEqualTo("http://127.0.0.1:9201");
        assertThat(value(demo, "--flink-rest")).isEqualTo("http://127.0.0.1:18081");
        assertThat(String.valueOf(value(demo, "--jar"))).matches("/checkout/jobs/target/volumizer-jobs-.+\\.jar");
        assertThat(value(given, "--repository")).isEqualTo("other");
        assertThat(value(given, "--checkpoint-interval")).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void reindexAndBulkTakeTheDemosRepositoryAsTheirDefault() {
        ENDPOINTS.forEach(System::setProperty);

        CommandLine.ParseResult commands = Volumizer.commandLine().parseArgs("commands", "reindex", "demo", "--delete-old")
                .subcommand();

        assertThat(value(commands.commandSpec(), "--default-repository")).isEqualTo("showcase");
        assertThat(commands.subcommand().matchedOption("--delete-old")).isNotNull();
    }

    @Test
    void withoutTheEndpointsFileAValueNamingAPropertyIsNoDefault() {
        assertThat(value(parsed("conventions"), "--repository")).isNull();
    }

    @Test
    void anUnknownSearchEngineIsRefused(@org.junit.jupiter.api.io.TempDir Path state) throws Exception {
        java.nio.file.Files.writeString(state.resolve("endpoints.properties"),
                "volumizer.search.engine=elasticsearch\nvolumizer.search.url.elasticsearch=http://127.0.0.1:9200\n");
        System.setProperty("volumizer.state", state.toString());
        try {
            assertThat(Volumizer.run("--search", "solr", "conventions")).isEqualTo(2);
        } finally {
            System.clearProperty("volumizer.state");
            System.clearProperty("volumizer.search.engine");
            System.clearProperty("volumizer.search.url.elasticsearch");
        }
    }

    private static CommandSpec parsed(String... args) {
        CommandLine.ParseResult result = Volumizer.commandLine().parseArgs(args);
        while (result.hasSubcommand()) {
            result = result.subcommand();
        }
        return result.commandSpec();
    }

    private static Object value(CommandSpec command, String option) {
        return command.findOption(option).getValue();
    }
}
