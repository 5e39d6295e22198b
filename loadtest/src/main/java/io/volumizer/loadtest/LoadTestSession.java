package io.volumizer.loadtest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.mongodb.client.MongoClients;

import io.volumizer.loadtest.SessionPlan.Action;
import io.volumizer.loadtest.SessionPlan.AwaitReindex;
import io.volumizer.loadtest.SessionPlan.Compare;
import io.volumizer.loadtest.SessionPlan.Run;
import io.volumizer.loadtest.SessionPlan.StartJob;
import io.volumizer.loadtest.SessionPlan.StartReindex;
import io.volumizer.loadtest.SessionPlan.WarmUp;
import io.volumizer.loadtest.curve.Backlog;
import io.volumizer.loadtest.curve.ImportCurve;
import io.volumizer.loadtest.curve.ImportRate;
import io.volumizer.ops.client.ApiTarget;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.ops.throttle.hold.HoldOptions;
import io.volumizer.api.commands.Commands;
import io.volumizer.api.commands.CommandsCli;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.demo.DemoRecord;
import io.volumizer.ops.demo.DemoRecordOptions;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.flink.SessionOptions;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.Failures;
import io.volumizer.options.Options;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code bin/volumizer loadtest <simulation>}: a load test on the repository the last demo imported, with what runs
 * beside the users. crud, smoke and mixed need the import running (the API's writes are applied by it): it is started
 * from the demo's consumer group, so it continues where the demo stopped. mixed runs twice, without and with a
 * throttled generate job adding customers to the repository, and compares the two; reindex runs navigation after a
 * warm-up, then again while the repository is reindexed, and compares the two. Jobs started here are stopped with a
 * savepoint at the end, and on Ctrl-C. Each run is a {@link LoadTestRunner} in a JVM of its own (Gatling keeps
 * static state); options this command does not know are that runner's ({@code --rate --duration --ramp --p95 ...}).
 */
@Command(name = "loadtest", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a Gatling simulation against the API on the demo's repository, with the jobs it needs beside it.",
        footer = {"%nExample:", "  bin/volumizer loadtest navigation --rate 40 --duration 60 --ramp 10"})
public final class LoadTestSession implements Callable<Integer> {

    private static final Duration JOB_START = Duration.ofMinutes(2);
    private static final Duration SAVEPOINT = Duration.ofMinutes(5);
    private static final Duration BACKLOG = Duration.ofMinutes(20);

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "Simulation: crud, navigation, search, mixed, smoke, or reindex "
            + "(navigation alone, then while the demo repository is reindexed).")
    String simulation;

    @Parameters(index = "1..*", paramLabel = "RUN_OPTION", description = "Options of each run: --rate --duration --ramp "
            + "--p95 --max-error-percent --refused-p95 (see LoadTestRunner).")
    List<String> runOptions = new ArrayList<>();

    @Mixin DemoRecordOptions record = new DemoRecordOptions();
    @Mixin ApiTarget target = new ApiTarget();
    @Mixin PipelineOptions pipeline = new PipelineOptions();
    @Mixin SessionOptions session = new SessionOptions();

    @Option(names = "--import-rate", defaultValue = "500", description = "mixed: documents/s the import adds beside the users (default: ${DEFAULT-VALUE}).")
    double importRate;

    @Option(names = "--import-customers", defaultValue = "100000", description = "mixed: customers the import may add at most (default: ${DEFAULT-VALUE}).")
    long importCustomers;

    @Option(names = "--import-rates", paramLabel = "RATES", description = "mixed: instead of two runs, a curve: the "
            + "users beside an import at each rate in turn after a warm-up, e.g. 0,100,250,500,1000,max,hold "
            + "(docs/s; 0 paused; max no limit; hold --hold-p95's controller, default the navigation target).")
    String importRates;

    @Option(names = "--backlog-customers", description = "The curve: customers generated before its passes, which "
            + "its import reads (default: as many as the passes may read, --backlog-ceiling for max and hold).")
    Long backlogCustomers;

    @Option(names = "--backlog-ceiling", defaultValue = "6000", description = "The curve: docs/s the import may reach "
            + "without a limit, which sizes the backlog of the max and hold passes; a pass that reads the whole "
            + "backlog is not judged (default: ${DEFAULT-VALUE}).")
    double backlogCeiling;

    @Option(names = "--hold-duration", defaultValue = "180", description = "The curve: seconds of the hold pass at "
            + "the full rate, longer than the others' for the controller to find its level (default: ${DEFAULT-VALUE}).")
    long holdDuration;

    @Option(names = "--curve-customers-file", defaultValue = LocalServices.STATE_FOLDER + "/loadtest-curve-next-customer",
            description = "Where the curve keeps the first customer no curve generated yet: each run imports new documents.")
    Path curveCustomers;

    @Mixin HoldOptions hold = new HoldOptions();

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.LOAD_TESTS);

    @Option(names = "--warm-up-results", defaultValue = LocalServices.STATE_FOLDER + "/loadtest-warm-up",
            description = "Where the warm-up runs' reports go, apart (default: ${DEFAULT-VALUE}).")
    Path warmUpResults;

    /** The curve's passes, parsed before anything starts. */
    private List<ImportRate> curve;

    @Override
    public Integer call() throws Exception {
        if (importRates != null) {
            if (!simulation.equals("mixed")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--import-rates runs the mixed simulation");
            }
            try {
                curve = ImportRate.parse(importRates);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        int checked = check(simulation.equals("reindex") ? "navigation" : simulation, runOptions); // what reindex runs
        if (checked != 0) {
            return checked;
        }
        try {
            pipeline.validate();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        DemoRecord demo = DemoRecord.read(record.file);
        requireApiReady();
        Files.createDirectories(results.folder);
        try (Session running = new Session(demo.run())) {
            Runtime.getRuntime().addShutdownHook(new Thread(running::stopJobs)); // Ctrl-C
            if (curve != null) {
                return running.curve(demo.importGroup());
            }
            int status = 0;
            for (Action action : SessionPlan.plan(simulation, demo.run(), demo.importGroup(), importRate, importCustomers)) {
                int exit = running.perform(action);
                status = exit != 0 ? exit : status;
            }
            return status;
        }
    }

    private void requireApiReady() throws IOException, InterruptedException {
        String ready = target.api + "/health/ready";
        // Liveness needs no token: an API that does not run is said so before a token is asked for.
        if (status(target.api + "/health/live", null) / 100 != 2 || status(ready, target.token()) / 100 != 2) {
            throw new IllegalStateException("the API is not ready at " + ready + "; start it with: bin/volumizer api start");
        }
    }

    /** The status of a GET of {@code url}, 0 when nothing answers. */
    private static int status(String url, String token) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        }
    }

    /** What a session started: its jobs on the cluster and the reindex command, undone or closed at its end. */
    private final class Session implements AutoCloseable {
        private final GeneratorSettings demo;
        private final FlinkSessionClient flink = session.client();
        private final List<String> jobs = new ArrayList<>();
        private boolean stopping;
        private String jarId;
        private MongoRepositories mongo;
        private SearchEngine search;
        private Commands commands;
        private String reindex;

        Session(GeneratorSettings demo) {
            this.demo = demo;
        }

        int perform(Action action) throws Exception {
            if (action instanceof StartJob job) {
                start(job);
            } else if (action instanceof Run run) {
                return runner(run.simulation(), fed(run.label(), results.folder), runOptions);
            } else if (action instanceof WarmUp warmUp) {
                runner(warmUp.simulation(), fed("warm-up", warmUpResults), runOptions, ProcessBuilder.Redirect.DISCARD);
            } else if (action instanceof StartReindex start) {
                startReindex(start.repository());
            } else if (action instanceof AwaitReindex) {
                return appendStatus(true);
            } else if (action instanceof Compare compare) {
                List<String> args = new ArrayList<>(List.of("compare", results.folder.resolve(compare.baseline() + ".json").toString(),
                        results.folder.resolve(compare.run() + ".json").toString(), "--out", results.folder.resolve(compare.out() + ".md").toString()));
                if (!compare.requests().isEmpty()) {
                    args.addAll(List.of("--requests", String.join(",", compare.requests())));
                }
                return LoadTestRunner.commandLine().execute(args.toArray(String[]::new));
            }
            return 0;
        }

        /**
         * The import curve on the demo's repository: its backlog is customers no run generated before, as many as
         * its passes may read. 1 when a pass ran out of them.
         */
        int curve(String importGroup) throws Exception {
            Duration target = hold.target != null ? hold.target : Duration.ofMillis(LoadSettings.NAVIGATION_P95_MILLIS);
            ImportCurve.Customers backlog = ImportCurve.takeCustomers(curveCustomers, demo.customers() + importCustomers,
                    from -> backlogCustomers != null ? backlogCustomers : backlogFor(curve, from));
            ThrottleSettings throttles = new ThrottleSettings(pipeline.kafka.clientProperties(), pipeline.registry.url,
                    pipeline.controlTopic(), pipeline.topicSettings);
            ImportCurve.Session passes = new ImportCurve.Session() {
                @Override
                public String start(Step step, List<String> arguments) throws Exception {
                    return Session.this.start(new StartJob(step, arguments));
                }

                @Override
                public void awaitFinished(String jobId) throws Exception {
                    flink.awaitState(jobId, "FINISHED", BACKLOG);
                    synchronized (jobs) {
                        jobs.remove(jobId);
                    }
                }

                @Override
                public void warmUp() throws Exception {
                    runner("mixed", fed("warm-up", warmUpResults), runOptions, ProcessBuilder.Redirect.DISCARD);
                }

                @Override
                public void run(String label, List<String> options) throws Exception {
                    List<String> all = new ArrayList<>(runOptions);
                    all.addAll(options);
                    runner("mixed", fed(label, results.folder), all);
                }
            };
            String header = String.format(Locale.ROOT, "Users: the mixed simulation (3 browsing for 1 "
                    + "searching), %s; import: %s of the demo's repository, a backlog of %,d customers (from customer "
                    + "%,d) generated first; run %s.", String.join(" ", runOptions), ImportCurve.IMPORT.id(),
                    backlog.count(), backlog.from(), Instant.now());
            return new ImportCurve(passes, curve, throttles, hold, target, results.folder, SessionPlan.MIXED_READS).run(
                    List.of("--group-id", importGroup), SessionPlan.customers(demo, backlog.from(), backlog.count()), holdDuration, header);
        }

        /** Customers from {@code first} on whose documents are enough for what the passes may read. */
        private long backlogFor(List<ImportRate> rates, long first) {
            LoadShape shape = new LoadShape();
            // as the runner parses them (a repeated option's last value counts), its other options left to it
            new CommandLine(shape).setUnmatchedArgumentsAllowed(true).setOverwrittenOptionsAllowed(true)
                    .parseArgs(runOptions.toArray(String[]::new));
            Backlog backlog = new Backlog(backlogCeiling, Duration.ofSeconds(shape.ramp + shape.duration),
                    Duration.ofSeconds(shape.ramp + holdDuration));
            long documents = backlog.documents(rates);
            BankGenerator generator = new BankGenerator(demo);
            long customers = Backlog.customers(first, documents, generator::documentCount);
            System.out.printf(Locale.ROOT, "volumizer: the curve's backlog: %,d customers, %,d documents or more "
                    + "(max and hold at %,.0f docs/s at most)%n", customers, documents, backlogCeiling);
            return customers;
        }

        private String start(StartJob job) throws Exception {
            if (jarId == null) {
                jarId = flink.uploadJar(session.jar);
            }
            String jobId;
            synchronized (jobs) { // not while the jobs are stopped (Ctrl-C), which would leave this one running
                if (stopping) {
                    throw new IllegalStateException("stopped before " + job.step().id() + " started");
                }
                jobId = flink.run(jarId, job.step(), Options.with(pipeline, job.arguments().toArray(String[]::new)), null);
                jobs.add(jobId);
            }
            flink.awaitState(jobId, "RUNNING", JOB_START);
            System.out.println("volumizer: " + job.step().id() + " job " + jobId + " running beside the users");
            return jobId;
        }

        private void startReindex(String repository) throws Exception {
            mongo = new MongoRepositories(pipeline.repositoryDatabases(), MongoClients::create);
            search = SearchEngines.open(pipeline.search);
            commands = new Commands(flink, session.jar, mongo, search, pipeline.indices(), Options.arguments(pipeline),
                    pipeline.kafka.clientProperties());
            reindex = commands.reindex(repository, List.of());
            Files.writeString(reindexFile(), "reindex of " + repository + ": command " + reindex + "\n");
            appendStatus(false);
            System.out.println("volumizer: reindexing " + repository + " beside the users (command " + reindex + ")");
        }

        /** The reindex command's status, now or once it ends, appended to its file; 0 unless it did not complete. */
        private int appendStatus(boolean wait) throws Exception {
            ByteArrayOutputStream status = new ByteArrayOutputStream();
            int exit = CommandsCli.follow(commands, reindex, wait, new PrintStream(status, true, StandardCharsets.UTF_8));
            Files.write(reindexFile(), status.toByteArray(), StandardOpenOption.APPEND);
            return exit;
        }

        private Path reindexFile() {
            return results.folder.resolve("navigation-reindex.command");
        }

        /** The options a run is fed: the API, and the demo's settings for its feeders. */
        private List<String> fed(String label, Path folder) {
            List<String> args = new ArrayList<>(target.arguments());
            args.addAll(SessionPlan.runArguments(demo));
            args.addAll(List.of("--results", folder.toString(), "--label", label));
            return args;
        }

        /** Stops the jobs started here with a savepoint; no job starts after. */
        void stopJobs() {
            synchronized (jobs) {
                stopping = true;
                for (String job : jobs) {
                    try {
                        System.out.println("volumizer: stopped " + job + " with savepoint " + flink.stopWithSavepoint(job, SAVEPOINT));
                    } catch (IOException | RuntimeException e) {
                        System.err.println("volumizer: could not stop job " + job + ": " + e.getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                jobs.clear();
            }
        }

        @Override
        public void close() {
            stopJobs();
            if (mongo != null) {
                mongo.close();
            }
            if (search != null) {
                search.close();
            }
        }
    }

    /** Runs {@link LoadTestRunner} in a JVM of its own, its output ours; returns its exit code. */
    private static int runner(String simulation, List<String> fed, List<String> options, ProcessBuilder.Redirect output)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "--add-opens=java.base/java.lang=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                LoadTestRunner.class.getName(), simulation));
        command.addAll(fed);
        command.addAll(options);
        return new ProcessBuilder(command).redirectOutput(output).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start().waitFor();
    }

    private static int runner(String simulation, List<String> fed, List<String> options)
            throws IOException, InterruptedException {
        return runner(simulation, fed, options, ProcessBuilder.Redirect.INHERIT);
    }

    /** Checks a run's options before anything starts: the runner's own check, in this JVM. */
    private int check(String simulation, List<String> options) {
        List<String> args = new ArrayList<>(List.of(simulation));
        args.addAll(target.arguments());
        args.addAll(options);
        args.add("--check-options");
        return LoadTestRunner.commandLine().setErr(spec.commandLine().getErr()).execute(args.toArray(String[]::new));
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        return new CommandLine(new LoadTestSession()).setUnmatchedOptionsArePositionalParams(true)
                .setExecutionExceptionHandler(Failures::oneLine);
    }
}
