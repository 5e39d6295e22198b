package io.volumizer.api.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClients;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.options.Failures;
import io.volumizer.options.Options;
import io.volumizer.options.endpoints.FlinkOptions;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.MongoReads;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.commands.CommandStore.State;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;

/**
 * {@code bin/volumizer reindex} and {@code bin/volumizer bulk ...}: the API's commands from a shell, on the same
 * records ({@link Commands}), so a command started by one is followed, aborted or resumed by the other. A command's
 * jobs use its repository's topics ({@code volumizer.<repository>.*}), or {@code --default-repository}'s when it
 * names none, and across a topology, whose repositories share one set of topics.
 */
@Command(name = "commands", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, description = "Reindex a repository, or change documents in bulk.",
        subcommands = {CommandsCli.Reindex.class, CommandsCli.Bulk.class})
public final class CommandsCli {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL = Duration.ofSeconds(1);

    @Mixin FlinkOptions flink = new FlinkOptions();
    @Mixin PipelineOptions pipeline = new PipelineOptions();

    @Option(names = "--jar", scope = CommandLine.ScopeType.INHERIT, description = "The jobs jar to upload.")
    Path jar;

    // Not required: picocli would refuse it even when a default provider gives it (the command line's local defaults).
    @Option(names = "--default-repository", description = "Whose topics a command uses when it names "
            + "no repository of its own, or works across a topology.")
    String defaultRepository;

    /** Runs a subcommand's work on the commands' records, its jobs on its topics. */
    <T> T withCommands(Subcommand subcommand, Work<T> work) throws Exception {
        useTopicsOf(subcommand);
        try (MongoRepositories mongo = new MongoRepositories(pipeline.repositoryDatabases(), MongoClients::create);
             SearchEngine search = SearchEngines.open(pipeline.search)) {
            Commands commands = new Commands(new FlinkSessionClient(flink.rest), jar, mongo, search, pipeline.indices(),
                    Options.arguments(pipeline), pipeline.kafka.clientProperties());
            return work.with(commands);
        }
    }

    interface Work<T> {
        T with(Commands commands) throws Exception;
    }

    /** A subcommand, and whose topics its jobs use. */
    interface Subcommand {
        /** The repository whose topics the jobs use; null for the default repository's. */
        String topicsRepository();
    }

    void useTopicsOf(Subcommand subcommand) {
        String repository = Objects.requireNonNullElse(subcommand.topicsRepository(), defaultRepository);
        if (repository == null) {
            throw new IllegalArgumentException("the command names no repository whose topics its jobs use: give "
                    + "--default-repository");
        }
        pipeline.documents.topicsOf(repository);
    }

    /** A topology is one of the pipeline's options, so it is read whichever subcommand it is written after. */
    public static String[] topologyFirst(String... args) {
        List<String> topology = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--topology") && i + 1 < args.length) {
                topology.addAll(List.of(args[i], args[++i]));
            } else if (args[i].startsWith("--topology=")) {
                topology.add(args[i]);
            } else {
                rest.add(args[i]);
            }
        }
        topology.addAll(rest);
        return topology.toArray(String[]::new);
    }

    /**
     * Prints the status until the command ends or waits for an import (or at once, without {@code wait}), with a
     * progress bar, then the status as JSON; returns 0 if it completed (or was not waited for), 3 if it waits for an
     * import to apply its changes (and says how to resume one), 1 otherwise. The command is reconciled first, then
     * on a schedule while it is followed: whether or not an API runs, what its job did shows.
     */
    public static int follow(Commands commands, String commandId, boolean wait, PrintStream out) throws Exception {
        CommandReconciler reconciler = commands.reconciler();
        MongoReads.retried(Backoff.DEFAULT, "the command's record", () -> {
            reconciler.reconcile(commandId);
            return commandId;
        });
        try (CommandReconciler.Schedule reconciling = reconciler.reconciling(commandId)) {
            return follow(() -> commands.status(commandId), wait, out, Backoff.DEFAULT);
        }
    }

    /** A command's status as the API answers it. */
    @FunctionalInterface
    interface StatusSource {
        ObjectNode read() throws IOException;
    }

    /**
     * {@link #follow(Commands, String, boolean, PrintStream)} from {@code source}, asked again (up to {@code retry}'s
     * attempts in a row) while MongoDB cannot answer, as in a failover: following a command changes nothing, and
     * its job goes on meanwhile.
     */
    static int follow(StatusSource source, boolean wait, PrintStream out, Backoff retry) throws Exception {
        ObjectNode status = MongoReads.retried(retry, "the command's status", source::read);
        boolean terminal = System.console() != null;
        long lastPrinted = 0;
        while (wait && isActive(status)) {
            if (terminal) {
                out.print("\r" + progress(status));
            } else if (System.nanoTime() - lastPrinted > Duration.ofSeconds(5).toNanos()) {
                out.println(progress(status));
                lastPrinted = System.nanoTime();
            }
            Thread.sleep(POLL.toMillis());
            status = MongoReads.retried(retry, "the command's status", source::read);
        }
        if (terminal && wait) {
            out.print("\r");
        }
        out.println(progress(status));
        out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(status));
        State state = State.valueOf(status.path("state").asText());
        if (state == State.WAITING_FOR_IMPORT) {
            out.println(status.path("message").asText());
        }
        return !wait || state == State.COMPLETED ? 0 : state == State.WAITING_FOR_IMPORT ? WAITING_FOR_IMPORT : 1;
    }

    /** The exit code of a command followed until its changes wait for an import. */
    static final int WAITING_FOR_IMPORT = 3;

    private static boolean isActive(JsonNode status) {
        State state = State.valueOf(status.path("state").asText());
        return state.isActive() && state != State.WAITING_FOR_IMPORT;
    }

    /** {@code [#######.............]  35%  35,000/100,000 docs  12,500 docs/s  ETA 5s  RUNNING} */
    static String progress(JsonNode status) {
        long total = status.path("total").asLong();
        long processed = status.path("processed").asLong();
        double rate = status.path("docsPerSecond").asDouble();
        int percent = total > 0 ? (int) Math.min(100, processed * 100 / total) : 0;
        int filled = percent / 5;
        String eta = rate > 0 && total > processed ? " ETA " + Math.round((total - processed) / rate) + "s" : "";
        return String.format("[%s%s] %3d%%  %,d/%,d docs  %,.0f docs/s%s  %s%s", "#".repeat(filled), ".".repeat(20 - filled),
                percent, processed, total, rate, eta, status.path("state").asText(),
                status.path("skipped").asLong() > 0 ? "  skipped " + status.path("skipped").asLong() : "");
    }

    /** {@code reindex <repository>}: into a new index, then the alias moves; follows the progress. */
    @Command(name = "reindex", description = "Reindex a repository into a new index and move its alias there, following the progress.")
    static final class Reindex extends OnRepository {
        @ParentCommand CommandsCli parent;

        @Option(names = "--delete-old", description = "Delete the old index once the alias moved.")
        boolean deleteOld;

        @Option(names = "--range-size", description = "Documents per id range (default: the job's).")
        Integer rangeSize;

        @Override
        public Integer call() throws Exception {
            List<String> options = new ArrayList<>();
            if (deleteOld) {
                options.add("--delete-old");
            }
            if (rangeSize != null) {
                options.addAll(List.of("--range-size", rangeSize.toString()));
            }
            return start(parent, "reindex of " + repository, commands -> commands.reindex(repository, options));
        }
    }

    /** What the commands that start a command on a repository share: the repository, and following the command. */
    abstract static class OnRepository implements Callable<Integer>, Subcommand {
        @Parameters(index = "0", description = "The repository.")
        String repository;

        @Option(names = "--no-wait", negatable = true, defaultValue = "true", description = "Return once submitted.")
        boolean wait;

        /** The repository's own topics. */
        @Override
        public String topicsRepository() {
            return repository;
        }

        /** Starts a command with {@code starting}, says that it did ({@code what}), then follows it. */
        int start(CommandsCli cli, String what, Work<String> starting) throws Exception {
            return cli.withCommands(this, commands -> {
                String commandId = starting.with(commands);
                System.out.println(what + ": command " + commandId);
                return follow(commands, commandId, wait, System.out);
            });
        }
    }

    /** {@code bulk update|delete|route|set-acl|status|abort|resume|retry}. */
    @Command(name = "bulk", description = "Change or delete the documents a selection finds, or a folder's ACL and "
            + "everything below it; follow, abort, resume or retry a command.",
            subcommands = {Update.class, Delete.class, Route.class, SetAcl.class, Status.class, Abort.class, Resume.class,
                Retry.class})
    static final class Bulk {
        @ParentCommand CommandsCli parent;
    }

    /** The search API's filters, as options. */
    static final class Filters {
        @Option(names = "--q", description = "Text, in simple query syntax.")
        String q;

        @Option(names = "--type", description = "Types, comma-separated.")
        String type;

        @Option(names = "--state", description = "States, comma-separated two-letter codes.")
        String state;

        @Option(names = "--from", description = "Created on or after (2025-01-31 or an instant).")
        String from;

        @Option(names = "--to", description = "Created on or before.")
        String to;

        Map<String, String> values() {
            Map<String, String> filters = new LinkedHashMap<>();
            String[][] given = {{"q", q}, {"type", type}, {"state", state}, {"from", from}, {"to", to}};
            for (String[] filter : given) {
                if (filter[1] != null) {
                    filters.put(filter[0], filter[1]);
                }
            }
            return filters;
        }
    }

    /** What the bulk commands that start a command on a selection share: the selection, and the action's name. */
    abstract static class Start extends OnRepository {
        @ParentCommand Bulk bulk;

        private final String action;

        Start(String action) {
            this.action = action;
        }

        @Mixin Filters filters = new Filters();

        @Option(names = "--all", description = "Every document of the repository: without a filter, the command is refused unless it says so.")
        boolean all;

        /** The repository's own topics; with a topology, the default repository's. */
        @Override
        public String topicsRepository() {
            return bulk.parent.pipeline.topology.file == null ? repository : null;
        }

        /** The action's parameters: none but for an update. */
        ObjectNode properties() {
            return null;
        }

        @Override
        public Integer call() throws Exception {
            ObjectNode properties = properties();
            return start(bulk.parent, action + " on " + repository + " " + (all ? "(all)" : filters.values()),
                    commands -> commands.bulk(repository, action, filters.values(), all, properties));
        }
    }

    @Command(name = "update", description = "Set properties on the selected documents: --set name=value (repeatable).")
    static final class Update extends Start {
        @Option(names = "--set", required = true, description = "A property to set, name=value (a string).")
        Map<String, String> set = new LinkedHashMap<>();

        Update() {
            super("setProperties");
        }

        @Override
        ObjectNode properties() {
            ObjectNode properties = JSON.createObjectNode();
            set.forEach(properties::put);
            return properties;
        }
    }

    @Command(name = "delete", description = "Delete the selected documents.")
    static final class Delete extends Start {
        Delete() {
            super("delete");
        }
    }

    @Command(name = "route", description = "Move the selected documents that the topology's rules now send to another "
            + "repository (--topology), e.g. statements that have turned 6 months old into the archive.")
    static final class Route extends Start {
        Route() {
            super("route");
        }

        /** A move across the topology's repositories, which share the default repository's topics. */
        @Override
        public String topicsRepository() {
            return null;
        }
    }

    @Command(name = "set-acl", description = "Replace a folder's own ACL, then recompute the effective ACL of every "
            + "document below it, including those created while it runs.")
    static final class SetAcl extends OnRepository {
        @ParentCommand Bulk bulk;

        @Option(names = "--document", required = true, description = "The folder.")
        String document;

        @Option(names = "--acl", required = true, description = "Its new ACL, as JSON: {\"aces\": [{\"principal\", "
                + "\"permission\": READ|WRITE|MANAGE, \"granted\"}], \"blockInheritance\"}.")
        String acl;

        @Override
        public Integer call() throws Exception {
            return start(bulk.parent, "setAcl on " + document + " in " + repository,
                    commands -> commands.setAcl(repository, document, JSON.readTree(acl)));
        }
    }

    /** What the commands on one command id share. */
    abstract static class OnCommand implements Callable<Integer>, Subcommand {
        @ParentCommand Bulk bulk;

        @Parameters(index = "0", description = "The command id.")
        String commandId;

        @Override
        public String topicsRepository() {
            return null;
        }

        /** Does {@code action} to the command (resume it, retry it), then follows it until it ends. */
        int followAfter(Work<?> action) throws Exception {
            return bulk.parent.withCommands(this, commands -> {
                action.with(commands);
                return follow(commands, commandId, true, System.out);
            });
        }
    }

    @Command(name = "status", description = "Follow a command until it ends (--no-wait: its status now).")
    static final class Status extends OnCommand {
        @Option(names = "--no-wait", negatable = true, defaultValue = "true", description = "Print the status now and return.")
        boolean wait;

        @Override
        public Integer call() throws Exception {
            return bulk.parent.withCommands(this, commands -> follow(commands, commandId, wait, System.out));
        }
    }

    @Command(name = "abort", description = "Stop a command's job with a savepoint (resume it later).")
    static final class Abort extends OnCommand {
        @Override
        public Integer call() throws Exception {
            return bulk.parent.withCommands(this, commands -> {
                System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(commands.abort(commandId)));
                return 0;
            });
        }
    }

    @Command(name = "resume", description = "Run an aborted command again from its savepoint, following it.")
    static final class Resume extends OnCommand {
        @Override
        public Integer call() throws Exception {
            return followAfter(commands -> commands.resume(commandId));
        }
    }

    @Command(name = "retry", description = "Read the failed ranges of a reindex again, then finish it, following it.")
    static final class Retry extends OnCommand {
        @Override
        public Integer call() throws Exception {
            return followAfter(commands -> commands.retry(commandId));
        }
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        return commandLine().execute(topologyFirst(args));
    }

    /** The command, as its main runs it (whose arguments go through {@link #topologyFirst} first). */
    public static CommandLine commandLine() {
        return new CommandLine(new CommandsCli()).setExecutionExceptionHandler((failure, command, parsed) -> {
            if (failure instanceof CommandRefusedException refused) {
                command.getErr().println(command.getCommandName() + ": " + refused.getMessage());
                return 2;
            }
            return Failures.oneLine(failure, command, parsed);
        });
    }
}
