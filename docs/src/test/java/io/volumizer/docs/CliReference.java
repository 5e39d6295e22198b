package io.volumizer.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.volumizer.api.commands.CommandsCli;
import io.volumizer.benchmarks.BenchCommand;
import io.volumizer.campaigns.CampaignCommand;
import io.volumizer.campaigns.report.ReportCommand;
import io.volumizer.cli.ApiCommand;
import io.volumizer.cli.ImportCsvCommand;
import io.volumizer.cli.Volumizer;
import io.volumizer.generators.cli.GenerateCommand;
import io.volumizer.loadtest.LoadTestRunner;
import io.volumizer.loadtest.LoadTestSession;
import io.volumizer.ops.demo.Demo;
import io.volumizer.ops.identity.TokenCommand;
import io.volumizer.ops.jobs.JobsCommand;
import io.volumizer.ops.plan.PlanCommand;
import io.volumizer.ops.throttle.ThrottleCommand;
import io.volumizer.options.cli.ConventionsCommand;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code docs/reference/cli.md}: {@code bin/volumizer}'s usage as the script declares it, then every command it runs
 * in Java, from the command's picocli model. Which Java class a command runs is {@code bin/volumizer}'s (and
 * {@code bin/lib/build.sh}'s) choice: {@link #COMMANDS} restates it for the commands, {@link #suites} reads it for
 * the benchmarks, and {@code ReferenceDocsTest} fails when the scripts name a command's class the page does not list.
 */
final class CliReference {

    /** A command of bin/volumizer run in Java: what a user types, the class, and a note where the model says too little. */
    record Entry(String typed, Class<?> type, Supplier<Object> instance, String note) {
    }

    /** The commands of bin/volumizer that run a picocli command of ours, in the order of its usage. */
    static final List<Entry> COMMANDS = List.of(
            new Entry("bin/volumizer demo", Demo.class, Demo::new, "Also `--search opensearch` (every command takes it: "
                    + "see [the usage](#binvolumizer) above)."),
            new Entry("bin/volumizer job", JobsCommand.class, JobsCommand::new, "`--jar` is the jobs jar built beside the "
                    + "command line. A step's own options follow the step: see [the steps' options](steps.md)."),
            new Entry("bin/volumizer throttle", ThrottleCommand.class, ThrottleCommand::new, null),
            new Entry("bin/volumizer import-csv", ImportCsvCommand.class, ImportCsvCommand::new, null),
            new Entry("bin/volumizer", CommandsCli.class, CommandsCli::new, "`bin/volumizer reindex` and `bin/volumizer bulk` "
                    + "run these subcommands, with the options before them as defaults (the local services' endpoints, "
                    + "`--jar`, `--default-repository` from `DEMO_REPOSITORY`)."),
            new Entry("bin/volumizer api", ApiCommand.class, ApiCommand::new, null),
            new Entry("bin/volumizer token", TokenCommand.class, TokenCommand::new, null),
            new Entry("bin/volumizer loadtest", LoadTestSession.class, LoadTestSession::new, null),
            new Entry("bin/volumizer generate", GenerateCommand.class, GenerateCommand::new, null),
            new Entry("bin/volumizer plan", PlanCommand.class, PlanCommand::new, null),
            new Entry("bin/volumizer campaign", CampaignCommand.class, CampaignCommand::new, null),
            new Entry("bin/volumizer conventions", ConventionsCommand.class, ConventionsCommand::new, null),
            new Entry("bin/volumizer report", ReportCommand.class, ReportCommand::new, "`--check` needs the packages "
                    + "chromium and chromium-driver, which bin/volumizer installs on first use."));

    /** Each run's options of {@code bin/volumizer loadtest}, which the session passes on to the runner. */
    static final Entry LOAD_TEST_RUN = new Entry("bin/volumizer loadtest", LoadTestRunner.class, LoadTestRunner::new,
            "The options of each run of a simulation, given after the simulation's name to `bin/volumizer loadtest`.");

    /** Notes on suites whose runner the model says too little about, by suite. */
    static final Map<String, String> BENCHMARK_NOTES = Map.of(
            "reliability", "`bin/volumizer bench fuzz` runs it with `--scenarios clean,fuzz --report fuzz`.");

    /** A suite of {@code bench}: its name, and the class it runs. */
    record Suite(String names, String className) {
    }

    /** {@code bin/volumizer bench <suite>}: each subcommand of {@link BenchCommand} and its runner, a runner once. */
    static List<Suite> suites(Path root) {
        Map<String, Suite> byClass = new LinkedHashMap<>();
        BenchCommand.commandLine().getSubcommands().forEach((name, command) -> byClass.putIfAbsent(
                command.getCommandSpec().userObject().getClass().getName(),
                new Suite(name, command.getCommandSpec().userObject().getClass().getName())));
        return List.copyOf(byClass.values());
    }

    /** The suites whose runner is a picocli command on this classpath, as entries of the page. */
    static List<Entry> benchmarks(Path root) throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (Suite suite : suites(root)) {
            Class<?> type;
            try {
                type = Class.forName(suite.className());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e); // a subcommand of BenchCommand: on this classpath
            }
            entries.add(new Entry("bin/volumizer bench " + suite.names(), type, () -> instantiate(type),
                    BENCHMARK_NOTES.get(suite.names())));
        }
        return entries;
    }

    private static Object instantiate(Class<?> type) {
        try {
            java.lang.reflect.Constructor<?> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + type.getName() + " to read its options", e);
        }
    }

    /** Classes the scripts run that are not commands of this page, and why. */
    static final Map<String, String> NOT_COMMANDS = Map.of(
            Volumizer.class.getName(), "the command line's root; its subcommands are the commands of this page",
            BenchCommand.class.getName(), "the suites' root; each suite is on the page");

    private CliReference() {
    }

    static String page(Path root) throws IOException {
        StringBuilder out = new StringBuilder(ReferenceDocs.header("CLI reference",
                "Every command `bin/volumizer` runs: first the script's own usage, then each command it runs in Java, "
                        + "from the command's picocli model (what its `--help` prints). Options shared by several "
                        + "commands are listed once, under [Option groups](#option-groups). Every command also takes "
                        + "`-h, --help`. The local services' endpoints are the options' defaults (the endpoints file "
                        + "`bin/volumizer up` writes from `conf/volumizer.conf`, and the demo's settings); an option "
                        + "you give wins. A job's own options are in [the steps' options](steps.md)."));
        out.append("## bin/volumizer\n\n");
        out.append("The script's usage (`bin/volumizer help`), as it declares it; `up`, `status`, `down`, `logs`, "
                + "`test` and `build` are the script's own (see [local services](../operations/local-services.md) "
                + "and [development](../development.md)).\n\n");
        out.append("```text\n").append(scriptUsage(root)).append("```\n\n");

        List<List<PicocliMarkdown.Command>> trees = new ArrayList<>();
        Map<Entry, List<PicocliMarkdown.Command>> commandsOf = new LinkedHashMap<>();
        List<Entry> benchmarks = benchmarks(root);
        List<Entry> all = new ArrayList<>(COMMANDS);
        all.add(LOAD_TEST_RUN);
        all.addAll(benchmarks);
        for (Entry entry : all) {
            List<PicocliMarkdown.Command> commands = commands(entry);
            commandsOf.put(entry, commands);
            trees.add(commands);
        }
        PicocliMarkdown markdown = new PicocliMarkdown(trees);

        out.append("## Commands\n\n");
        for (Entry entry : COMMANDS) {
            render(out, markdown, entry, commandsOf.get(entry));
            if (entry.type() == LoadTestSession.class) {
                render(out, markdown, LOAD_TEST_RUN, commandsOf.get(LOAD_TEST_RUN));
            }
        }
        out.append("## Benchmarks\n\n`bin/volumizer bench <suite>`: what each suite measures and its current figures are in "
                + "[benchmarks/results](../../benchmarks/results/README.md); a suite's own defaults (its "
                + "repository and run size, the jobs' parallelism) are BenchCommand's, shown by `bin/volumizer bench <suite> "
                + "--help`; the endpoints are those of the local services.\n\n");
        for (Entry entry : benchmarks) {
            render(out, markdown, entry, commandsOf.get(entry));
        }
        out.append("## Option groups\n\n");
        out.append("Options a class declares for several commands (a picocli mixin, or a class the commands extend).\n\n");
        Map<String, String> anchors = new LinkedHashMap<>();
        commandsOf.values().forEach(commands -> commands.forEach(command ->
                anchors.putIfAbsent(command.heading(), Markdown.anchor(PicocliMarkdown.heading(command.heading())))));
        out.append(markdown.groups(3, anchors));
        return out.toString().strip() + "\n";
    }

    private static void render(StringBuilder out, PicocliMarkdown markdown, Entry entry, List<PicocliMarkdown.Command> commands) {
        for (int i = 0; i < commands.size(); i++) {
            out.append(markdown.command(commands.get(i), 3, i == 0 ? entry.note() : null));
        }
    }

    /** The entry's command and its subcommands, depth first, each headed by what a user types. */
    static List<PicocliMarkdown.Command> commands(Entry entry) {
        CommandLine commandLine = new CommandLine(entry.instance().get());
        List<PicocliMarkdown.Command> commands = new ArrayList<>();
        if (entry == LOAD_TEST_RUN) {
            commands.add(new PicocliMarkdown.Command("Each load-test run", commandLine.getCommandSpec(),
                    "bin/volumizer loadtest <simulation>", true));
            return commands; // its compare subcommand is the session's, not typed by users
        }
        String heading = entry.type() == CommandsCli.class ? "bin/volumizer reindex, bulk" : entry.typed();
        add(commands, heading, commandLine.getCommandSpec(), entry.type() == CommandsCli.class ? "bin/volumizer" : entry.typed());
        return commands;
    }

    private static void add(List<PicocliMarkdown.Command> commands, String heading, CommandSpec spec, String typed) {
        commands.add(new PicocliMarkdown.Command(heading, spec, typed.equals("bin/volumizer") ? "bin/volumizer reindex|bulk" : typed));
        for (Map.Entry<String, CommandLine> sub : spec.subcommands().entrySet()) {
            if (!sub.getKey().equals(sub.getValue().getCommandName())) {
                continue; // an alias
            }
            String subTyped = typed + " " + sub.getKey();
            add(commands, subTyped, sub.getValue().getCommandSpec(), subTyped);
        }
    }

    /** The usage text bin/volumizer prints, up to its lines about this machine's settings. */
    static String scriptUsage(Path root) throws IOException {
        List<String> lines = Files.readAllLines(root.resolve("bin/volumizer"));
        StringBuilder usage = new StringBuilder();
        boolean inside = false;
        for (String line : lines) {
            if (!inside && line.strip().equals("cat <<EOF")) {
                inside = true;
            } else if (inside) {
                if (line.equals("EOF") || line.startsWith("Services: ")) {
                    break;
                }
                usage.append(line).append('\n');
            }
        }
        if (!inside) {
            throw new IllegalStateException("no usage (cat <<EOF ... EOF) in bin/volumizer");
        }
        return usage.toString().stripTrailing() + "\n";
    }
}
