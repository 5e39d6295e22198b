package io.volumizer.ops.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.options.Failures;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.steps.Step;
import io.volumizer.domain.topology.Topology;
import io.volumizer.options.conventions.MetricNames;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/volumizer demo}: resets the demo repository, submits the import, index and generate jobs to the
 * session cluster (visible in its Web UI), prints a progress line per stage, stops the streaming jobs with
 * savepoints once everything is through, and ends with a summary: documents and docs/s per stage, dead letters,
 * and the reconciliation generated = imported + dead-lettered, imported = indexed, checked against the stores.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Resets the demo's repository, runs generate -> import -> index end to end on the Flink session "
                + "cluster, stops the jobs with savepoints, and prints a summary reconciled from the stores "
                + "(bin/volumizer demo starts the local services first).",
        footer = {"%nExample:", "  bin/volumizer demo --customers 100"})
public final class Demo extends PipelineRunCommand {

    @Mixin DemoRecordOptions record = new DemoRecordOptions();

    @Option(names = "--timeout", defaultValue = "PT20M", description = "Give up after (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    /** How often the stores are counted once the jobs' metrics stop short (a restarted job counts from its checkpoint). */
    private static final Duration STORES_CHECK = Duration.ofSeconds(10);

    /** One stage's progress: its count and when it first and last moved. */
    private static final class Stage {
        final String name;
        long count;
        long firstNanos;
        long lastNanos;

        Stage(String name) {
            this.name = name;
        }

        void update(long value, long now) {
            if (value > count) {
                if (count == 0) {
                    firstNanos = now;
                }
                lastNanos = now;
                count = value;
            }
        }

        double rate() {
            double seconds = (lastNanos - firstNanos) / 1e9;
            return seconds > 0 ? count / seconds : 0;
        }
    }

    @Override
    protected int run(GeneratorSettings settings) throws Exception {
        FlinkSessionClient flink = session.client();
        String repository = settings.repository();
        Topology topology = pipeline.topology.orSingle(repository);
        Files.deleteIfExists(record.file); // it describes the documents the reset below deletes
        try (Stores stores = new Stores(pipeline)) {
            for (String reset : topology.repositories()) {
                System.out.println("resetting repository '" + reset + "' (topics, collection, index)");
                stores.reset(reset);
            }
            String jarId = flink.uploadJar(session.jar);
            String importJob = flink.run(jarId, Step.IMPORT, Options.with(pipeline, "--group-id", importGroup()), null);
            String indexJob = flink.run(jarId, Step.INDEX,
                    Options.with(pipeline, "--index-group-id", Step.INDEX.consumerGroup(repository)), null);
            flink.awaitState(importJob, "RUNNING", Duration.ofMinutes(2));
            flink.awaitState(indexJob, "RUNNING", Duration.ofMinutes(2));
            String generateJob = flink.run(jarId, Step.GENERATE, generateArguments(), null);
            System.out.printf("jobs submitted; watch them at %s%n", session.flink.rest);

            Stage generated = new Stage("generate");
            Stage imported = new Stage("import");
            Stage indexed = new Stage("index");
            long deadLettered = 0;
            long generatedTotal = -1;
            long started = System.nanoTime();
            long storesChecked = started;
            boolean done = false;
            while (!done) {
                Thread.sleep(1000);
                long now = System.nanoTime();
                String generateState = flink.state(generateJob);
                for (String job : List.of(importJob, indexJob)) {
                    String state = flink.state(job);
                    if (!state.equals("RUNNING")) {
                        throw new IllegalStateException("job " + job + " is " + state + ": " + flink.exceptions(job));
                    }
                }
                if (generateState.equals("FAILED") || generateState.equals("CANCELED")) {
                    throw new IllegalStateException("generate job " + generateState + ": " + flink.exceptions(generateJob));
                }
                // A finished job's metrics are gone from REST: its final count is what its topic holds.
                if (generateState.equals("FINISHED") && generatedTotal < 0) {
                    generatedTotal = stores.committedRecords(pipeline.documentsTopic());
                }
                generated.update(generatedTotal >= 0 ? generatedTotal
                        : flink.metricSum(generateJob, "Generate", MetricNames.GENERATED), now);
                imported.update(flink.metricSum(importJob, "MongoDB", MetricNames.WRITTEN), now);
                indexed.update(flink.metricSum(indexJob, "Elasticsearch", MetricNames.WRITTEN), now);
                deadLettered = flink.metricSum(importJob, "", MetricNames.DEAD_LETTERED)
                        + flink.metricSum(indexJob, "", MetricNames.DEAD_LETTERED);
                System.out.printf(Locale.ROOT, "\rgenerate %,10d (%,7.0f/s) | import %,10d (%,7.0f/s) | index %,10d (%,7.0f/s)"
                        + " | dead letters %,d   ", generated.count, generated.rate(), imported.count, imported.rate(),
                        indexed.count, indexed.rate(), deadLettered);
                boolean generatedAll = generateState.equals("FINISHED") && generated.count > 0;
                done = generatedAll && imported.count + deadLettered >= generated.count && indexed.count >= imported.count;
                long lastMoved = Math.max(storesChecked, Math.max(imported.lastNanos, indexed.lastNanos));
                if (generatedAll && !done && now - lastMoved >= STORES_CHECK.toNanos()) {
                    // The metrics stopped short: a job that restarted after a fault counts again from its checkpoint.
                    // The stores hold the truth (and while one is down, the demo waits, as the jobs do).
                    storesChecked = now;
                    done = storesCaughtUp(stores, topology, generated, imported, indexed, now);
                }
                if (System.nanoTime() - started > timeout.toNanos()) {
                    System.out.println();
                    System.err.println("gave up after " + timeout);
                    return 1;
                }
            }
            System.out.println();
            String importSavepoint = flink.stopWithSavepoint(importJob, Duration.ofMinutes(2));
            String indexSavepoint = flink.stopWithSavepoint(indexJob, Duration.ofMinutes(2));
            System.out.println("import stopped with savepoint " + importSavepoint);
            System.out.println("index stopped with savepoint " + indexSavepoint);
            int reconciled = summary(stores, settings, topology, generated, imported, indexed,
                    (System.nanoTime() - started) / 1e9);
            // The record names one repository, for the API and the load tests: a run over a topology leaves none.
            if (reconciled == 0 && pipeline.topology.topology().isEmpty()) {
                new DemoRecord(settings, imported.count, importGroup(), importSavepoint, indexSavepoint).write(record.file);
            }
            return reconciled;
        }
    }

    /** Whether the stores hold every generated document, counted into the stages; false while a store is down. */
    private boolean storesCaughtUp(Stores stores, Topology topology, Stage generated, Stage imported, Stage indexed,
            long now) {
        try {
            long inMongo = 0;
            long inElasticsearch = 0;
            for (String repository : topology.repositories()) {
                inMongo += stores.mongoEstimatedCount(repository);
                inElasticsearch += stores.elasticsearchCount(repository);
            }
            long allDeadLetters = stores.committedRecords(pipeline.deadletterTopic());
            imported.update(inMongo, now);
            indexed.update(inElasticsearch, now);
            return inMongo + allDeadLetters >= generated.count && inElasticsearch + allDeadLetters >= inMongo;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The import's consumer group: a later import job of this group continues where the demo's stopped. */
    private String importGroup() {
        return Step.IMPORT.consumerGroup(run.repository);
    }

    private int summary(Stores stores, GeneratorSettings settings, Topology topology, Stage generated, Stage imported,
            Stage indexed, double seconds) throws Exception {
        Map<String, Long> generatedIn = stores.documentsByRepository(pipeline.documentsTopic());
        Map<String, Long> deadLetteredIn = stores.deadLettersByRepository();
        System.out.println();
        System.out.println("summary (" + settings.repository() + ", seed " + settings.seed() + ", " + settings.customers()
                + " customers, " + topology.source() + ", indexed by " + stores.search().name() + " "
                + stores.search().version() + ")");
        System.out.printf(Locale.ROOT, "  %-9s %12s %12s%n", "stage", "documents", "docs/s");
        for (Stage stage : List.of(generated, imported, indexed)) {
            System.out.printf(Locale.ROOT, "  %-9s %,12d %,12.0f%n", stage.name, stage.count, stage.rate());
        }
        System.out.printf(Locale.ROOT, "  end to end: %,d documents in %.1f s = %,.0f docs/s%n", indexed.count, seconds,
                indexed.count / seconds);
        System.out.printf(Locale.ROOT, "  dead-lettered: %,d%n", deadLetteredIn.values().stream().mapToLong(Long::longValue).sum());
        System.out.printf(Locale.ROOT, "  %-18s %12s %12s %14s %12s   %s%n", "repository", "generated", "imported",
                "dead-lettered", "indexed", "generated = imported + dead-lettered; imported = indexed");
        boolean reconciled = true;
        Set<String> repositories = new TreeSet<>(topology.repositories());
        repositories.addAll(generatedIn.keySet());
        repositories.addAll(deadLetteredIn.keySet());
        for (String repository : repositories) {
            long inTopic = generatedIn.getOrDefault(repository, 0L);
            long deadLettered = deadLetteredIn.getOrDefault(repository, 0L);
            boolean stored = !repository.equals(Stores.UNATTRIBUTED);
            long inMongo = stored ? stores.mongoCount(repository) : 0;
            long inElasticsearch = stored ? stores.elasticsearchCount(repository) : 0;
            boolean ok = inTopic == inMongo + deadLettered && inMongo == inElasticsearch;
            reconciled &= ok;
            System.out.printf(Locale.ROOT, "  %-18s %,12d %,12d %,14d %,12d   %s%n", repository, inTopic, inMongo,
                    deadLettered, inElasticsearch, ok ? "OK" : "MISMATCH");
        }
        long inTopic = generatedIn.values().stream().mapToLong(Long::longValue).sum();
        boolean all = inTopic == generated.count;
        System.out.printf(Locale.ROOT, "  generated %,d (the generate job) = %,d in the documents topic : %s%n",
                generated.count, inTopic, all ? "OK" : "MISMATCH");
        return reconciled && all ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Demo()).setExecutionExceptionHandler(Failures::oneLine).execute(args));
    }
}
