package io.volumizer.docs;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import io.volumizer.options.cli.ConventionsCommand;
import io.volumizer.options.conventions.ConsumerGroups;
import io.volumizer.options.conventions.TopicNames;
import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.keys.RepositoryNames;
import io.volumizer.stores.search.IndexNames;
import picocli.CommandLine;

/**
 * {@code docs/reference/names.md}: the names Volumizer derives (topics, consumer groups, indices, database, jobs),
 * each from the one rule that makes it ({@link TopicNames}, {@link ConsumerGroups}, {@link IndexNames}, {@link Step}),
 * and what {@code bin/volumizer conventions} prints for the demo's repository and the published topology.
 */
final class NamesReference {

    /** A repository's name no rule changes, replaced by {@code <repository>} in the patterns. */
    static final String SENTINEL = "r3p0s1t0ry";
    private static final String REPOSITORY = "<repository>";

    private NamesReference() {
    }

    static String page(Path root) {
        StringBuilder out = new StringBuilder(ReferenceDocs.header("Names: topics, consumer groups, indices",
                "Every name below is made by one rule in Java (`options/src/main/java/io/volumizer/options/conventions`, "
                        + "`IndexNames`, `MongoOptions`, `Step`). The jobs, the API, `bin/volumizer` and the Helm chart "
                        + "are given only a repository (`--topics-of <repository>`; a topic or group option still wins); "
                        + "`bin/volumizer conventions [--repository R] [--topology FILE] [--format yaml]` prints them."));
        out.append("## Rules\n\n| what | name |\n|---|---|\n");
        out.append("| a repository's name | ").append(Markdown.cell(RepositoryNames.RULE)).append(": ")
                .append(Markdown.codeCell(RepositoryNames.PATTERN)).append(" |\n");
        TopicNames topics = TopicNames.of(SENTINEL);
        row(out, "documents topic (document events, keyed by parent id)", topics.documents());
        row(out, "imported topic (imported documents, keyed by id)", topics.imported());
        row(out, "dead-letter topic", topics.deadletter());
        row(out, "control topic (throttles, compacted, keyed by target)", topics.control());
        row(out, "topics without a repository", String.join(", ", TopicNames.DEFAULT.all()));
        row(out, "the smoke job's topic", TopicNames.SMOKE);
        row(out, "the import's consumer group (import and import-and-index)", ConsumerGroups.of(SENTINEL, ConsumerGroups.IMPORT));
        row(out, "the index job's consumer group", ConsumerGroups.of(SENTINEL, ConsumerGroups.INDEX));
        row(out, "the files' text index job's consumer group (`--file-text only`)", ConsumerGroups.of(SENTINEL, ConsumerGroups.FILE_TEXT));
        row(out, "consumer groups without a repository", ConsumerGroups.of(null, ConsumerGroups.IMPORT) + ", "
                + ConsumerGroups.of(null, ConsumerGroups.INDEX));
        IndexNames indices = new IndexNames(IndexNames.DEFAULT_PREFIX);
        row(out, "a repository's index alias (what searches and the index stage use)", indices.of(SENTINEL));
        row(out, "a generation of it (a concrete index; a reindex makes a new one)", indices.generation(SENTINEL, "<yyyyMMdd-HHmmssSSS>"));
        row(out, "every generation of a repository", indices.generations(SENTINEL));
        row(out, "every index of the prefix", indices.all());
        row(out, "the index template", indices.template());
        out.append("| the index prefix (`--index-prefix`) | ").append(Markdown.cell(IndexNames.PREFIX_RULE)).append(", default ")
                .append(Markdown.codeCell(IndexNames.DEFAULT_PREFIX)).append(" |\n");
        row(out, "the MongoDB database (`--mongodb-database`)", MongoOptions.DEFAULT_DATABASE);
        out.append('\n');

        out.append("## Jobs\n\nA step's jobs run under its job name and an instance: the consumer group they read in, "
                + "or the repository they write; the same name heads the folder their checkpoints are kept in "
                + "(`<execution.checkpointing.dir>/<job name>/<instance>/<job id>/chk-<n>`).\n\n"
                + "| step | job name | instance |\n|---|---|---|\n");
        for (Step step : Step.values()) {
            String instance;
            try {
                instance = Markdown.codeCell(step.consumerGroup(SENTINEL).replace(SENTINEL, REPOSITORY));
            } catch (IllegalArgumentException none) {
                instance = step.commandKind().map(kind -> "the command's id, " + Markdown.codeCell(kind + "-" + REPOSITORY + "-<time>-<random>"))
                        .orElse(switch (step) {
                            case SMOKE -> "none";
                            case IMPORT_CSV -> "the repository it writes and its `--path`";
                            default -> "the repository it writes (`--repository`)";
                        });
            }
            out.append("| ").append(step.id()).append(" | ").append(Markdown.codeCell(step.jobName())).append(" | ")
                    .append(instance).append(" |\n");
        }
        out.append('\n');

        out.append("## The demo's repository\n\n`bin/volumizer conventions --repository demo --format yaml`:\n\n```yaml\n")
                .append(conventions("--repository", "demo", "--format", "yaml")).append("```\n\n");
        out.append("## The published topology\n\n`bin/volumizer conventions --topology topologies/11b.yaml --format yaml` "
                + "(each repository's index alias):\n\n```yaml\n")
                .append(conventions("--topology", root.resolve("topologies/11b.yaml").toString(), "--format", "yaml"))
                .append("```\n");
        return out.toString();
    }

    private static void row(StringBuilder out, String what, String name) {
        out.append("| ").append(what).append(" | ").append(Markdown.codeCell(name.replace(SENTINEL, REPOSITORY))).append(" |\n");
    }

    private static String conventions(String... args) {
        StringWriter text = new StringWriter();
        CommandLine commandLine = new CommandLine(new ConventionsCommand());
        commandLine.setOut(new PrintWriter(text));
        int exit = commandLine.execute(args);
        if (exit != 0) {
            throw new IllegalStateException("conventions " + List.of(args) + " exited " + exit);
        }
        String printed = text.toString();
        return printed.endsWith("\n") ? printed : printed + "\n";
    }
}
