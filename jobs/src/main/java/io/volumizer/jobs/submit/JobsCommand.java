package io.volumizer.jobs.submit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.jobs.generate.GenerateOptions;
import io.volumizer.jobs.imports.ImportOptions;
import io.volumizer.jobs.index.IndexOptions;
import io.volumizer.jobs.options.JobOptions;
import io.volumizer.jobs.options.PipelineOptions;
import io.volumizer.jobs.pipeline.ImportAndIndexOptions;
import io.volumizer.jobs.smoke.SmokeOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bin/volumizer job ...}: operates the pipeline's steps on the session cluster through its REST API, the
 * same calls the Web UI makes: submit, stop with a savepoint, resume from one, reset, list.
 */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = "Submit, stop, resume, reset and list Volumizer jobs on the Flink session cluster.",
        subcommands = {JobsCommand.Submit.class, JobsCommand.Stop.class, JobsCommand.Resume.class,
            JobsCommand.Reset.class, JobsCommand.ListJobs.class})
public final class JobsCommand {

    /**
     * A step's main class, run on the cluster, and its options, whose help is printed here: the client's classpath
     * has no Flink, so a job class cannot even be loaded on this side.
     */
    record Step(String mainClass, Supplier<Object> options) {
    }

    static final Map<String, Step> STEPS = Map.of(
            "generate", new Step("io.volumizer.jobs.generate.GenerateJob", GenerateOptions::new),
            "import", new Step("io.volumizer.jobs.imports.ImportJob", ImportOptions::new),
            "index", new Step("io.volumizer.jobs.index.IndexJob", IndexOptions::new),
            "import-and-index", new Step("io.volumizer.jobs.pipeline.ImportAndIndexJob", ImportAndIndexOptions::new),
            "smoke", new Step("io.volumizer.jobs.smoke.SmokeJob", SmokeOptions::new));

    @Option(names = "--flink-rest", defaultValue = "http://127.0.0.1:8081", scope = CommandLine.ScopeType.INHERIT,
            description = "Flink REST endpoint (default: ${DEFAULT-VALUE}).")
    String flinkRest;

    @Option(names = "--jar", scope = CommandLine.ScopeType.INHERIT, description = "The jobs jar to upload.")
    Path jar;

    FlinkSessionClient flink() {
        return new FlinkSessionClient(flinkRest);
    }

    static Step step(String name) {
        Step step = STEPS.get(name);
        if (step == null) {
            throw new CommandLine.ParameterException(new CommandLine(new JobsCommand()),
                    "unknown step '" + name + "'; steps: " + STEPS.keySet());
        }
        return step;
    }

    /** Submits a step and waits until it runs; with {@code --help} among its options, prints them instead. */
    void submit(String step, List<String> args, String savepoint) throws Exception {
        if (args.contains("--help") || args.contains("-h")) {
            JobOptions.parse(step(step).options().get(), "--help");
            return;
        }
        if (jar == null) {
            throw new IllegalArgumentException("--jar is required to submit a job");
        }
        FlinkSessionClient client = flink();
        String jobId = client.run(client.uploadJar(jar), step(step).mainClass(), args, savepoint);
        client.awaitState(jobId, "RUNNING", Duration.ofMinutes(2));
        System.out.printf("%s job %s running%s%n", step, jobId, savepoint == null ? "" : " from " + savepoint);
    }

    /** Submits a step with its options (everything after the step name is passed to the job). */
    @Command(name = "submit", description = "Submit a step: generate, import, index, import-and-index, smoke.")
    static final class Submit implements Callable<Integer> {
        @ParentCommand
        JobsCommand parent;

        @Parameters(index = "0", description = "The step.")
        String step;

        @Parameters(index = "1..*", arity = "0..*", description = "The job's own options (see <step> --help).")
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            parent.submit(step, args, null);
            return 0;
        }
    }

    /** Stops a job with a savepoint and prints where it is. */
    @Command(name = "stop", description = "Stop a job with a savepoint.")
    static final class Stop implements Callable<Integer> {
        @ParentCommand
        JobsCommand parent;

        @Parameters(index = "0", description = "Job id.")
        String jobId;

        @Override
        public Integer call() throws Exception {
            String savepoint = parent.flink().stopWithSavepoint(jobId, Duration.ofMinutes(5));
            System.out.println("stopped " + jobId + " with savepoint " + savepoint);
            return 0;
        }
    }

    /** Resumes a step from a savepoint, with the options it ran with. */
    @Command(name = "resume", description = "Resume a step from a savepoint.")
    static final class Resume implements Callable<Integer> {
        @ParentCommand
        JobsCommand parent;

        @Parameters(index = "0", description = "The step.")
        String step;

        @Parameters(index = "1", description = "The savepoint path printed by 'stop'.")
        String savepoint;

        @Parameters(index = "2..*", arity = "0..*", description = "The job's own options, as when it was submitted.")
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            parent.submit(step, args, savepoint);
            return 0;
        }
    }

    /** Empties a repository's topics, collection and index, so the next run starts from nothing. */
    @Command(name = "reset", description = "Delete a repository's topics, MongoDB collection and Elasticsearch index.")
    static final class Reset implements Callable<Integer> {
        @Mixin
        PipelineOptions pipeline = new PipelineOptions();

        @Parameters(index = "0", description = "Repository.")
        String repository;

        @Override
        public Integer call() throws Exception {
            try (Stores stores = new Stores(pipeline)) {
                stores.reset(repository, pipeline.documentsTopic, pipeline.importedTopic, pipeline.deadletterTopic);
            }
            System.out.println("reset " + repository + ": topics " + pipeline.documentsTopic + ", "
                    + pipeline.importedTopic + ", " + pipeline.deadletterTopic + ", its collection and its index");
            return 0;
        }
    }

    /** Lists the cluster's jobs. */
    @Command(name = "list", description = "List the jobs of the session cluster.")
    static final class ListJobs implements Callable<Integer> {
        @ParentCommand
        JobsCommand parent;

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
    static int execute(String... args) {
        // The job's own options follow the step: they are passed on, not parsed here.
        return new CommandLine(new JobsCommand()).setUnmatchedOptionsArePositionalParams(true).execute(args);
    }
}
