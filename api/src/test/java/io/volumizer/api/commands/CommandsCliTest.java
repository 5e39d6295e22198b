package io.volumizer.api.commands;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoException;

import io.volumizer.stores.Backoff;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** How {@code bin/volumizer reindex|bulk} reads its line: the topology wherever it is, and whose topics a command uses. */
class CommandsCliTest {

    private static final String TOPOLOGY = "../topologies/11b.yaml";

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            reindex us-east                                               | us-east
            reindex us-east --no-wait --topology TOPOLOGY                 | us-east
            bulk update us-east --type Statement --set reviewed=yes       | us-east
            bulk delete us-east --state TX                                | us-east
            bulk update us-east --set reviewed=yes --topology TOPOLOGY    | demo
            bulk delete us-east --topology=TOPOLOGY                       | demo
            bulk route us-east --type Statement --topology TOPOLOGY       | demo
            bulk status reindex-20250101-000000-demo                      | demo
            bulk abort reindex-20250101-000000-demo                       | demo
            """)
    void aCommandUsesItsRepositorysTopicsOrTheDefaultRepositorys(String line, String topicsOf) {
        CommandsCli cli = new CommandsCli();
        CommandsCli.Subcommand subcommand = parse(cli, line);

        cli.useTopicsOf(subcommand);

        assertThat(cli.pipeline.documents.repository()).isEqualTo(topicsOf);
        assertThat(List.of(cli.pipeline.documentsTopic(), cli.pipeline.importedTopic(), cli.pipeline.deadletterTopic()))
                .containsExactly("volumizer." + topicsOf + ".documents", "volumizer." + topicsOf + ".imported",
                        "volumizer." + topicsOf + ".deadletter");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            bulk route us-east --type Statement --topology TOPOLOGY
            bulk route us-east --topology=TOPOLOGY --type Statement
            bulk route us-east --type Statement
            """)
    void theTopologyIsReadWhereverItIsWritten(String line) {
        CommandsCli cli = new CommandsCli();
        CommandsCli.Start route = (CommandsCli.Start) parse(cli, line);

        assertThat(route.repository).isEqualTo("us-east");
        assertThat(route.filters.values()).containsEntry("type", "Statement");
        assertThat(cli.pipeline.topology.file).isEqualTo(line.contains("TOPOLOGY") ? Path.of(TOPOLOGY).toAbsolutePath().normalize() : null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            bulk delete us-east --all                  | true
            bulk update us-east --all --set reviewed=yes | true
            bulk delete us-east --type Statement       | false
            """)
    void everyDocumentIsAskedForInSoManyWords(String line, boolean all) {
        CommandsCli.Start start = (CommandsCli.Start) parse(new CommandsCli(), line);

        assertThat(start.all).isEqualTo(all);
    }

    @Test
    void everySubcommandPrintsItsHelp() {
        for (String[] command : List.of(new String[] {"reindex", "--help"}, new String[] {"bulk", "--help"},
                new String[] {"bulk", "update", "--help"}, new String[] {"bulk", "status", "--help"})) {
            StringWriter printed = new StringWriter();
            CommandLine commandLine = CommandsCli.commandLine();
            commandLine.setOut(new PrintWriter(printed));

            int exit = commandLine.execute(command);

            assertThat(exit).as(String.join(" ", command)).isZero();
            assertThat(printed.toString()).as(String.join(" ", command)).contains("Usage: commands " + command[0]);
        }
    }

    @Test
    void followingAsksAgainWhileMongoDbCannotAnswer() throws Exception {
        List<String> answers = new ArrayList<>(List.of("error", "RUNNING", "error", "error", "COMPLETED"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        int exit = CommandsCli.follow(() -> status(answers.remove(0)), true, new PrintStream(printed, true, UTF_8),
                new Backoff(Duration.ZERO, Duration.ZERO, 2));

        assertThat(exit).as("completed").isZero();
        assertThat(answers).isEmpty();
        assertThat(printed.toString(UTF_8)).contains("COMPLETED");
    }

    @Test
    void followingGivesUpAfterItsAttemptsInARow() {
        List<String> answers = new ArrayList<>(List.of("RUNNING", "error", "error", "error", "COMPLETED"));

        assertThatThrownBy(() -> CommandsCli.follow(() -> status(answers.remove(0)), true,
                new PrintStream(new ByteArrayOutputStream(), true, UTF_8), new Backoff(Duration.ZERO, Duration.ZERO, 1)))
                .isInstanceOf(MongoException.class);
        assertThat(answers).as("no more asked").containsExactly("error", "COMPLETED");
    }

    /** A status in {@code state}, or MongoDB's error for "error". */
    private static ObjectNode status(String state) {
        if (state.equals("error")) {
            throw new MongoException("Chunk 556 not found");
        }
        return JsonNodeFactory.instance.objectNode().put("state", state).put("total", 10).put("processed", 5);
    }

    private static CommandsCli.Subcommand parse(CommandsCli cli, String line) {
        String[] args = ("--default-repository demo --jar jobs.jar " + line.replace("TOPOLOGY", TOPOLOGY)).split(" ");
        ParseResult parsed = new CommandLine(cli).parseArgs(CommandsCli.topologyFirst(args));
        while (parsed.hasSubcommand()) {
            parsed = parsed.subcommand();
        }
        return (CommandsCli.Subcommand) parsed.commandSpec().userObject();
    }
}
