package io.volumizer.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.volumizer.api.commands.CommandsCli;
import io.volumizer.benchmarks.BenchCommand;
import io.volumizer.campaigns.CampaignCommand;
import io.volumizer.campaigns.report.ReportCommand;
import io.volumizer.generators.cli.GenerateCommand;
import io.volumizer.loadtest.LoadTestSession;
import io.volumizer.ops.demo.Demo;
import io.volumizer.ops.identity.TokenCommand;
import io.volumizer.ops.jobs.JobsCommand;
import io.volumizer.ops.plan.PlanCommand;
import io.volumizer.ops.throttle.ThrottleCommand;
import io.volumizer.options.Failures;
import io.volumizer.options.cli.ConventionsCommand;
import io.volumizer.options.endpoints.LocalEndpoints;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code volumizer}, the one command line (bin/volumizer runs it for every command but the services'): each tool is
 * a subcommand, and the local services' endpoints and the demo's settings are the options' defaults (the endpoints
 * file through system properties, {@link LocalDefaults} for what differs by command).
 */
@Command(name = Volumizer.NAME, mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "Volumizer's tools, on the local services of bin/volumizer up by default.",
        footer = {"%n" + Volumizer.SEARCH + " elasticsearch|opensearch, anywhere on the command line, picks the search "
                + "engine of the command (default: SEARCH_ENGINE of conf/volumizer.conf).",
                "reindex and bulk are the subcommands of 'commands', given without it."})
public final class Volumizer {

    static final String NAME = "volumizer";
    static final String SEARCH = "--search";
    /** The subcommands of {@link CommandsCli}, which take its options before them: typed without its name. */
    private static final Set<String> COMMANDS = Set.of("reindex", "bulk");

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code. */
    static int run(String... args) {
        List<String> rest = new ArrayList<>();
        String engine = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(SEARCH) && i + 1 < args.length) {
                engine = args[++i];
            } else if (args[i].startsWith(SEARCH + "=")) {
                engine = args[i].substring(SEARCH.length() + 1);
            } else {
                rest.add(args[i]);
            }
        }
        try {
            LocalEndpoints.load(state(), engine);
        } catch (IllegalArgumentException e) {
            System.err.println(NAME + ": " + e.getMessage());
            return 2;
        }
        CommandLine root = commandLine();
        if (!rest.isEmpty() && COMMANDS.contains(rest.get(0))) {
            // From the root: a subcommand's CommandLine run alone fails on the options its own subcommands inherit.
            List<String> commands = new ArrayList<>(List.of("commands"));
            commands.addAll(List.of(CommandsCli.topologyFirst(rest.toArray(String[]::new))));
            return root.execute(commands.toArray(String[]::new));
        }
        return root.execute(rest.toArray(String[]::new));
    }

    /** The root and its subcommands, each configured as its own main configured it, with the local defaults. */
    public static CommandLine commandLine() {
        CommandLine root = new CommandLine(new Volumizer())
                .addSubcommand(new CommandLine(new Demo()))
                .addSubcommand(JobsCommand.commandLine())
                .addSubcommand(new CommandLine(new ThrottleCommand()))
                .addSubcommand(new CommandLine(new ImportCsvCommand()).setUnmatchedOptionsArePositionalParams(true))
                .addSubcommand(hidden(CommandsCli.commandLine()))
                .addSubcommand(new CommandLine(new ApiCommand()))
                .addSubcommand(new CommandLine(new TokenCommand()))
                .addSubcommand(LoadTestSession.commandLine())
                .addSubcommand(new CommandLine(new GenerateCommand()).setCaseInsensitiveEnumValuesAllowed(true))
                .addSubcommand(new CommandLine(new PlanCommand()).setCaseInsensitiveEnumValuesAllowed(true))
                .addSubcommand(CampaignCommand.commandLine())
                .addSubcommand(new CommandLine(new ConventionsCommand()))
                .addSubcommand(new CommandLine(new ReportCommand()));
        LocalDefaults local = LocalDefaults.load();
        root.setDefaultValueProvider(local).setExecutionExceptionHandler(Failures::oneLine);
        // Added after: its suites keep their own defaults, the local ones under them.
        return root.addSubcommand(BenchCommand.commandLine(local));
    }

    private static CommandLine hidden(CommandLine command) {
        command.getCommandSpec().usageMessage().hidden(true);
        return command;
    }

    /** The state folder bin/volumizer gives ({@code volumizer.state}), else the working directory's. */
    static Path state() {
        return Path.of(System.getProperty("volumizer.state", ".volumizer"));
    }
}
