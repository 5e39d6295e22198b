package io.volumizer.ops.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Operation;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * A pipeline run in a scope of its own on the local services (their endpoints are the system properties of the
 * endpoints file): topics, database and index named after the run, the jobs jar uploaded once, its steps submitted on
 * the session cluster through Flink's REST API as a user would, the stores read directly; {@link #close()} cancels
 * every job still running and deletes what the run wrote. The integration tests' run; the benchmarks cancel their
 * jobs as it does ({@link #cancelUnfinished}).
 */
public final class ScopedRun implements AutoCloseable {

    /** The local session cluster's REST address. */
    public static final String FLINK_REST = System.getProperty("volumizer.flink.rest");
    public static final FlinkSessionClient FLINK = new FlinkSessionClient(FLINK_REST);
    /** The Prometheus endpoints of the local cluster's JobManager and TaskManagers. */
    public static final String FLINK_METRICS = System.getProperty("volumizer.flink.metrics");
    /** A stage's dead letters by reason class, labelled with the class. */
    public static final String DEAD_LETTERED = MetricNames.prometheusName(MetricNames.DEAD_LETTERED);
    /** The seed of every scoped run's content. */
    public static final long SEED = 7;
    private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(1);
    /** The cluster's id of each jobs jar uploaded: once a JVM. */
    private static final Map<Path, String> UPLOADED = new ConcurrentHashMap<>();

    public final String run = UUID.randomUUID().toString().substring(0, 8);
    public final String repository = "it" + run;
    public final PipelineOptions pipeline;
    public final Stores stores;
    public final MongoClient mongo;
    private final String jarId;
    private final List<String> jobs = new ArrayList<>();

    /**
     * @param jobsJar the jobs jar to run the steps of
     * @param options more of the pipeline's options (a topology), given to every step and to {@link #stores}
     */
    public ScopedRun(Path jobsJar, String... options) throws IOException {
        pipeline = Options.parse(new PipelineOptions(), Stream.concat(Stream.of(
                "--bootstrap-servers", System.getProperty("volumizer.kafka.bootstrap"),
                "--registry-url", System.getProperty("volumizer.registry.url"),
                "--mongodb-uri", System.getProperty("volumizer.mongodb.uri"),
                "--search-url", System.getProperty("volumizer.search.url." + System.getProperty("volumizer.search.engine")),
                "--documents-topic", "it." + run + ".documents", "--imported-topic", "it." + run + ".imported",
                "--deadletter-topic", "it." + run + ".deadletter", "--mongodb-database", "it_" + run,
                "--index-prefix", "it-" + run + "-", "--partitions", "2", "--parallelism", "2",
                "--checkpoint-interval", "PT1S"), Stream.of(options)).toArray(String[]::new));
        stores = new Stores(pipeline);
        mongo = MongoClients.create(pipeline.mongodb.uri);
        try {
            jarId = UPLOADED.computeIfAbsent(jobsJar.toAbsolutePath(), jar -> {
                try {
                    return FLINK.uploadJar(jar);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The pipeline's options, then {@code options} (which replace the pipeline's of the same name). */
    public List<String> args(String... options) {
        return Options.with(pipeline, options);
    }

    /** Submits a step (from a savepoint or checkpoint, or none) and waits until it runs. */
    public String submit(Step step, List<String> args, String savepoint) throws Exception {
        String id = FLINK.run(jarId, step, args, savepoint);
        jobs.add(id);
        FLINK.awaitState(id, "RUNNING", Duration.ofMinutes(2));
        return id;
    }

    /** A job submitted otherwise (by the CLI) that {@link #close()} cancels too. */
    public void adopt(String jobId) {
        jobs.add(jobId);
    }

    /** Runs a bounded step (a bulk command) until it finishes. */
    public void runToEnd(Step step, List<String> args) throws Exception {
        String id = FLINK.run(jarId, step, args, null);
        jobs.add(id);
        FLINK.awaitState(id, "FINISHED", Duration.ofMinutes(3));
    }

    /** Generates {@link #generated} into the documents topic and waits until the generate job is done. */
    public void generate(long customers, int statements, String... range) throws Exception {
        List<String> options = new ArrayList<>(List.of("--seed", Long.toString(SEED), "--customers", Long.toString(customers),
                "--statements-per-account", Integer.toString(statements), "--repository", repository));
        options.addAll(List.of(range));
        runToEnd(Step.GENERATE, args(options.toArray(String[]::new)));
    }

    /** The documents a run of this repository generates. */
    public List<DocumentEvent> generated(long customers, int statements) {
        return new BankGenerator(settings(customers, statements)).documents();
    }

    /** The settings of a run of this repository. */
    public GeneratorSettings settings(long customers, int statements) {
        return new GeneratorSettings(SEED, customers, statements, 2.0, GeneratorSettings.DEFAULT_LAST_PERIOD, repository);
    }

    /** The counterparties of a generated statement's operations: words its PDF holds and its metadata does not. */
    public List<String> counterparties(DocumentEvent statement, long customers, int statements) {
        BlobKey key = BlobKey.parse(statement.getBlob().getKey(), repository);
        BankModel model = new BankModel(settings(customers, statements));
        return model.statement(model.account(model.customer(key.customer()), key.account()), key.statement())
                .operations().stream().map(Operation::counterparty).toList();
    }

    public long mongoCount() {
        return mongoCount(pipeline.mongodb.database);
    }

    public long mongoCount(String database) {
        return mongo.getDatabase(database).getCollection(repository).countDocuments();
    }

    public long elasticsearchCount() throws IOException {
        return stores.elasticsearchCount(repository);
    }

    public long deadLetters() {
        return stores.committedRecords(pipeline.deadletterTopic());
    }

    /**
     * Cancels those of {@code jobs} not finished yet (a failed run left them; the next one needs their slots); one
     * that cannot be is named on stderr, and left.
     */
    public static void cancelUnfinished(FlinkSessionClient flink, Collection<String> jobs, Duration timeout) {
        for (String job : jobs) {
            try {
                if (!FlinkSessionClient.isTerminal(flink.state(job))) {
                    flink.cancel(job, timeout);
                }
            } catch (Exception e) {
                System.err.printf(Locale.ROOT, "  could not cancel job %s, left on the cluster: %s%n", job, e.getMessage());
            }
        }
    }

    @Override
    public void close() throws Exception {
        cancelUnfinished(FLINK, jobs, CANCEL_TIMEOUT);
        stores.reset(repository);
        mongo.getDatabase(pipeline.mongodb.database).drop();
        mongo.close();
        stores.close();
    }
}
