package io.volumizer.ops.jobs;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.flink.RetainedCheckpoints;
import io.volumizer.ops.flink.EndedRuns;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Failures;
import io.volumizer.options.Options;
import io.volumizer.options.endpoints.FlinkOptions;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.PipelineStepOptions;
import io.volumizer.options.steps.Step;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bin/volumizer job ...}: operates the pipeline's steps on the session cluster through its REST API, the
 * same calls the Web UI makes: submit, stop with a savepoint, resume from one, recover from the newest retained
 * checkpoint, reset, list. A step's options are parsed and checked here, with the step's own options class, before
 * anything is uploaded.
 */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = "Submit, stop, resume, reset and list Volumizer jobs on the Flink session cluster.",
        footer = {"%nExample:", "  bin/volumizer job list"},
        subcommands = {JobsCommand.Submit.class, JobsCommand.Stop.class, JobsCommand.Resume.class,
            JobsCommand.Recover.class, JobsCommand.Reset.class, JobsCommand.ListJobs.class})
public final class JobsCommand {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SEARCH_URL = "--search-url";

    @Spec
    CommandSpec spec;

    @Mixin FlinkOptions flink = new FlinkOptions();

    @Option(names = "--jar", scope = CommandLine.ScopeType.INHERIT, description = "The jobs jar to upload.")
    Path jar;

    @Option(names = "--default-search-url", scope = CommandLine.ScopeType.INHERIT, paramLabel = "URL", description =
            "The search cluster a submitted, recovered or reset step reaches when its own options name none "
            + "(bin/volumizer passes its --search engine's); a run resumed by its step's name keeps the one it ran with.")
    String defaultSearchUrl;

    FlinkSessionClient flink() {
        return new FlinkSessionClient(flink.rest);
    }

    /**
     * Submits a step and waits until it runs; with {@code --help} among its options, prints them instead.
     *
     * @return the exit code: 0, or 2 for options the step refuses (reported in one line, then its usage)
     */
    int submit(String stepName, List<String> args, String savepoint, boolean json) throws Exception {
        Step step;
        List<String> arguments;
        try {
            step = Step.named(stepName);
            if (step.parse(args) == null) {
                return 0; // help, printed
            }
            arguments = step.arguments(args);
        } catch (Options.InvalidOptionsException e) {
            System.err.println("job submit " + stepName + ": " + e.reason());
            System.err.println(e.usage());
            return 2;
        } catch (IllegalArgumentException e) {
            System.err.println("job submit: " + e.getMessage());
            return 2;
        }
        if (jar == null) {
            System.err.println("job submit: --jar is required to submit a job");
            return 2;
        }
        FlinkSessionClient client = flink();
        String jobId = client.run(client.uploadJar(jar), step.mainClass(), arguments, savepoint);
        client.awaitState(jobId, "RUNNING", Duration.ofMinutes(2));
        if (savepoint != null && !client.awaitRestored(jobId, Duration.ofMinutes(2))) {
            System.err.printf("%s job %s: some tasks are still restoring the savepoint after 2 minutes%n", step.id(),
                    jobId);
        }
        PrintWriter out = spec.commandLine().getOut(); // what a caller in this JVM reads (ReliabilityBenchmark)
        if (json) {
            out.println(JSON.createObjectNode().put("step", step.id()).put("jobId", jobId)
                    .put("state", "RUNNING").put("savepoint", savepoint));
        } else {
            out.printf("%s job %s running%s%n", step.id(), jobId, savepoint == null ? "" : " from " + savepoint);
        }
        return 0;
    }

    /**
     * {@code args} after this command's defaults for the step (the search cluster, for a step that reaches one): the
     * step's own options come later, so they win.
     */
    List<String> withDefaults(String stepName, List<String> args) {
        if (defaultSearchUrl == null || !Step.ids().contains(stepName)
                || CommandSpec.forAnnotatedObject(Step.named(stepName).newOptions()).findOption(SEARCH_URL) == null) {
            return args;
        }
        List<String> all = new ArrayList<>(List.of(SEARCH_URL, defaultSearchUrl));
        all.addAll(args);
        return all;
    }

    /** What submitting and resuming a step share: the step, its options, and how to print the job that runs. */
    abstract static class StepCommand implements Callable<Integer> {
        @ParentCommand JobsCommand parent;

        @Option(names = "--json", description = "Print the job as JSON: {step, jobId, state, savepoint}.")
        boolean json;

        @Parameters(index = "0", description = "The step.")
        String step;

        @Parameters(index = "1..*", arity = "0..*", paramLabel = "ARGS", description = "See the command's description.")
        List<String> args = new ArrayList<>();
    }

    /**
     * Resumes a step from the newest checkpoint its runs left in the step's checkpoint folder (see
     * {@link Step#checkpointDirectory}), e.g. after the JobManager was lost with the job: what a user does by hand
     * with the Web UI, given the path.
     */
    int recover(String stepName, List<String> given, boolean json) throws Exception {
        List<String> args = withDefaults(stepName, given);
        Object options;
        try {
            options = Step.named(stepName).parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("job recover " + stepName + ": " + (e instanceof Options.InvalidOptionsException invalid
                    ? invalid.reason() + System.lineSeparator() + invalid.usage() : e.getMessage()));
            return 2;
        }
        if (!(options instanceof PipelineStepOptions run)) {
            System.err.println("job recover: " + stepName + " is not a pipeline step with retained checkpoints");
            return 2;
        }
        Step step = Step.named(stepName);
        FlinkSessionClient client = flink();
        for (JsonNode job : client.jobs()) {
            if (job.path("name").asText().startsWith(step.runName(run)) && !FlinkSessionClient.isTerminal(job.path("state").asText())) {
                System.err.println("job recover " + stepName + ": " + step.runName(run) + " is " + job.path("state").asText()
                        + " as job " + job.path("jid").asText() + "; stop it first");
                return 1;
            }
        }
        String clusterFolder = client.clusterSetting("execution.checkpointing.dir").orElseThrow(() ->
                new IllegalStateException("the cluster has no execution.checkpointing.dir: no checkpoint is retained"));
        String folder = step.checkpointDirectory(clusterFolder, run);
        if (!RetainedCheckpoints.isLocal(folder)) {
            System.err.println("job recover: the checkpoints are in " + folder + ", not on this machine; on Kubernetes the "
                    + "Flink operator resumes a step from its last checkpoint (job.upgradeMode: last-state)");
            return 1;
        }
        Optional<String> checkpoint = RetainedCheckpoints.newest(folder);
        if (checkpoint.isEmpty()) {
            System.err.println("job recover " + stepName + ": no retained checkpoint of " + step.runName(run) + " in "
                    + folder + "; submit it anew");
            return 1;
        }
        return submit(stepName, args, checkpoint.get(), json);
    }

    /** Submits a step with its options (everything after the step name is the job's). */
    @Command(name = "submit", description = "Submit a step (generate, import, index, import-and-index, import-csv, smoke, reindex, bulk-update, set-acl) with its "
            + "own options after it (see <step> --help).",
            footer = {"%nExample:", "  bin/volumizer job submit import --topics-of bank"})
    static final class Submit extends StepCommand {
        @Override
        public Integer call() throws Exception {
            return parent.submit(step, parent.withDefaults(step, args), null, json);
        }
    }

    /**
     * Resumes a step from a savepoint: the one given, with the options given; or, by the step's name alone, from the
     * savepoint its newest stopped run left, with the options that run was submitted with (and any given after them,
     * which replace those of the same name).
     */
    @Command(name = "resume", description = "Resume a step from a savepoint. 'job resume <step> [options]': its newest "
            + "run, if it was stopped with a savepoint, from there, with the options it ran with, then those given (a "
            + "later value of a single option replaces the earlier; a repeatable one adds to it), printing each option "
            + "it changes; --topics-of or a consumer group (--group-id, or --index-group-id for index) names the "
            + "instance whose newest run is resumed; --parallelism P resumes it at P (up to its --max-parallelism). "
            + "'job resume <step> <savepoint> [options]': from that savepoint, with the options given.",
            footer = {"%nExamples:", "  bin/volumizer job resume import --topics-of demo",
                "  bin/volumizer job resume import-and-index --topics-of demo --parallelism 4"})
    static final class Resume extends StepCommand {
        @Override
        public Integer call() throws Exception {
            if (!args.isEmpty() && !args.get(0).startsWith("-")) {
                return parent.submit(step, parent.withDefaults(step, args.subList(1, args.size())), args.get(0), json);
            }
            return parent.resumeNewest(step, args, json);
        }
    }

    /**
     * Resumes the newest ended run of a step's instance (its run name: the step and, say, its consumer group), from
     * the savepoint it was stopped with, with its options then {@code more}; refused when that run ended otherwise
     * (cancelled, failed: {@code job recover} resumes its newest checkpoint), or while a run of the instance runs.
     * {@code more} may name the instance ({@code --topics-of other}): only runs it leaves as they were are resumed.
     */
    int resumeNewest(String stepName, List<String> more, boolean json) throws Exception {
        Step step;
        try {
            step = Step.named(stepName);
        } catch (IllegalArgumentException e) {
            System.err.println("job resume: " + e.getMessage());
            return 2;
        }
        FlinkSessionClient client = flink();
        for (EndedRuns.EndedRun run : EndedRuns.of(client, step)) {
            Optional<Instance> instance = instance(step, run.arguments(), List.of());
            if (instance.isEmpty() || !instance.equals(instance(step, run.arguments(), more))) {
                continue; // recorded no arguments, or of another instance or repository than the options given name
            }
            for (JsonNode job : client.jobs()) {
                if (job.path("name").asText().equals(instance.get().runName())
                        && !FlinkSessionClient.isTerminal(job.path("state").asText())) {
                    System.err.println("job resume " + stepName + ": " + instance.get().runName() + " is " + job.path("state").asText()
                            + " as job " + job.path("jid").asText() + "; stop it first");
                    return 1;
                }
            }
            if (run.savepoint() == null) {
                System.err.println("job resume " + stepName + ": the newest run of " + instance.get().runName() + ", job " + run.jobId()
                        + ", ended " + run.state() + " without being stopped with a savepoint; resume it from its newest "
                        + "checkpoint: job recover " + stepName + " [its options]");
                return 1;
            }
            List<String> arguments = new ArrayList<>(run.arguments());
            arguments.addAll(more);
            if (!json) {
                List<String> changes = changes(step, run.arguments(), arguments);
                System.out.println("resuming " + run.name() + " (job " + run.jobId() + ") from " + run.savepoint()
                        + " with the options it ran with" + (changes.isEmpty() ? ", unchanged"
                        : "; changed: " + String.join(", ", changes)));
            }
            return submit(stepName, arguments, run.savepoint(), json);
        }
        System.err.println("job resume " + stepName + ": no ended run of " + step.jobName() + (more.isEmpty() ? "" : " "
                + more) + " is known to the cluster (nor to its archive, " + EndedRuns.ARCHIVE_SETTING + "); give the "
                + "savepoint: job resume " + stepName + " <savepoint> [options]");
        return 1;
    }

    /** Each option whose value differs between two arguments lists of a step, as "--name before -> after". */
    static List<String> changes(Step step, List<String> before, List<String> after) {
        Map<String, List<String>> was = values(step, before);
        Map<String, List<String>> is = values(step, after);
        List<String> changes = new ArrayList<>();
        for (String name : new TreeSet<>(is.keySet())) {
            if (!is.get(name).equals(was.get(name))) {
                changes.add(name + " " + String.join(" ", was.getOrDefault(name, List.of("(none)"))) + " -> "
                        + String.join(" ", is.get(name)));
            }
        }
        return changes;
    }

    private static Map<String, List<String>> values(Step step, List<String> args) {
        List<String> written = Options.arguments(step.parse(args));
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (int i = 0; i < written.size(); i++) {
            String name = written.get(i);
            boolean flag = i + 1 >= written.size() || written.get(i + 1).startsWith("--");
            values.computeIfAbsent(name, n -> new ArrayList<>()).add(flag ? "true" : written.get(++i));
        }
        return values;
    }

    /** A step's instance: its run name (the step and its consumer group) and the repository whose topics it reads. */
    private record Instance(String runName, String topicsOf) {
    }

    /**
     * The instance {@code recorded} then {@code more} give the step; empty for arguments it refuses, or none. A run
     * resumed with {@code more} must keep both: its group, and its topics ({@code --topics-of} names another
     * repository's, whose runs record their own group).
     */
    private static Optional<Instance> instance(Step step, List<String> recorded, List<String> more) {
        if (recorded == null) {
            return Optional.empty();
        }
        List<String> arguments = new ArrayList<>(recorded);
        arguments.addAll(more);
        try {
            return step.parse(arguments) instanceof PipelineStepOptions options ? Optional.of(new Instance(
                    step.runName(options), options.pipeline.documents.repository())) : Optional.empty();
        } catch (IllegalArgumentException refused) {
            return Optional.empty();
        }
    }

    /** Resumes a step from its newest retained checkpoint, with the options it ran with. */
    @Command(name = "recover", description = "Resume a step from the newest checkpoint its runs left (kept when a job "
            + "is cancelled, fails, or is lost with the JobManager), with the step's options as when it was submitted.",
            footer = {"%nExample:", "  bin/volumizer job recover import --topics-of bank"})
    static final class Recover extends StepCommand {
        @Override
        public Integer call() throws Exception {
            return parent.recover(step, args, json);
        }
    }

    /** Stops a job with a savepoint and prints where it is. */
    @Command(name = "stop", description = "Stop a job with a savepoint, and print where the savepoint is.",
            footer = {"%nExample (a job id from bin/volumizer job list):",
                "  bin/volumizer job stop 5e211a9a95f0945ef5b2e4571850ba02"})
    static final class Stop implements Callable<Integer> {
        @ParentCommand JobsCommand parent;

        @Parameters(index = "0", description = "Job id.")
        String jobId;

        @Override
        public Integer call() throws Exception {
            String savepoint = parent.flink().stopWithSavepoint(jobId, Duration.ofMinutes(5));
            System.out.println("stopped " + jobId + " with savepoint " + savepoint);
            return 0;
        }
    }

    /** Empties the pipeline's topics and repositories' collections and indices, so the next run starts from nothing. */
    @Command(name = "reset", description = "Delete the topics of --topics-of (the default topics without it), and each "
            + "repository's MongoDB collections (documents, files' texts) and index.",
            footer = {"%nExample:", "  bin/volumizer job reset docs-deadletter --topics-of docs-deadletter"})
    static final class Reset implements Callable<Integer> {
        @ParentCommand JobsCommand parent;
        @Spec CommandSpec spec;

        @Mixin PipelineOptions pipeline = new PipelineOptions();

        @Parameters(arity = "1..*", description = "Repositories (a topology's, say).")
        List<String> repositories;

        @Override
        public Integer call() throws Exception {
            if (parent.defaultSearchUrl != null && !spec.commandLine().getParseResult().hasMatchedOption(SEARCH_URL)) {
                pipeline.search.urls = parent.defaultSearchUrl;
            }
            try (Stores stores = new Stores(pipeline)) {
                for (String repository : repositories) {
                    stores.reset(repository);
                }
            }
            System.out.println("reset " + String.join(", ", repositories) + ": topics " + pipeline.documentsTopic() + ", "
                    + pipeline.importedTopic() + ", " + pipeline.deadletterTopic() + ", their collections and indices");
            return 0;
        }
    }

    /** Lists the cluster's jobs. */
    @Command(name = "list", description = "List the jobs of the session cluster: id, state, and the run's name (its step "
            + "and instance).",
            footer = {"%nExample:", "  bin/volumizer job list"})
    static final class ListJobs implements Callable<Integer> {
        @ParentCommand JobsCommand parent;

        @Override
        public Integer call() throws Exception {
            for (JsonNode job : parent.flink().jobs()) {
                System.out.printf("%s  %-10s %s%n", job.path("jid").asText(), job.path("state").asText(),
                        job.path("name").asText());
            }
            return 0;
        }
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command and returns its exit code. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command, as its main runs it. */
    public static CommandLine commandLine() {
        // The job's own options follow the step: they are passed on to the step's options class, not parsed here.
        return new CommandLine(new JobsCommand()).setUnmatchedOptionsArePositionalParams(true)
                .setExecutionExceptionHandler(Failures::oneLine);
    }
}
