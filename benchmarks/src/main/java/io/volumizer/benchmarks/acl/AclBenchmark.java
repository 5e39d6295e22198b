package io.volumizer.benchmarks.acl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.bson.Document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;

import io.volumizer.api.commands.CommandReconciler;
import io.volumizer.harness.ServiceFaults;
import io.volumizer.ops.results.Report;
import io.volumizer.api.commands.Commands;
import io.volumizer.harness.Await;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * An ACL change's propagation at scale: the pipeline imports a repository whose largest state folder holds at least
 * the descendants asked for, then a setAcl command gives that state a new ACL (one more principal may read it)
 * while a generate job keeps adding customers, and so documents below the state, that the running import takes in.
 * Measured: how long until the command is COMPLETED (every descendant applied and checked), how many documents it
 * changed a second, against the rate the same import took the repository in at the start of the same run; at the
 * end, once the generation is through, every stored effective ACL of the state's subtree against the brute-force
 * evaluation of the own ACLs over MongoDB, and the index's count of what the new principal may read against
 * MongoDB's. Writes {@code acl-propagation.json} and {@code acl-propagation.md}.
 */
@Command(name = "acl-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Times a setAcl command on the largest state folder while a generate job adds customers below "
                + "it, then checks every effective ACL against a brute-force evaluation; writes acl-propagation.json "
                + "and acl-propagation.md.",
        footer = {"%nExample:", "  bin/volumizer bench acl"})
public final class AclBenchmark extends PipelineRunCommand {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The principal the new ACL lets read the state. */
    private static final String GRANTEE = "regional-audit";

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--min-descendants", defaultValue = "100000", description = "Documents the state folder must hold "
            + "below it; the run's customers must give its largest state that many (default: ${DEFAULT-VALUE}).")
    long minDescendants;

    @Option(names = "--docs-per-second", defaultValue = "5000", description = "The rate the repository is generated "
            + "at, about what the import takes in on this machine: it follows without a backlog (default: ${DEFAULT-VALUE}).")
    double docsPerSecond;

    @Option(names = "--more-customers", defaultValue = "1000", description = "Customers generated while the command "
            + "runs (default: ${DEFAULT-VALUE}).")
    long moreCustomers;

    @Option(names = "--more-docs-per-second", defaultValue = "1000", description = "The rate they are generated at "
            + "(default: ${DEFAULT-VALUE}).")
    double moreDocsPerSecond;

    /** What a fault during the command does to the local services. */
    enum Fault { taskmanager, mongodb, backlog }

    /** Stops the import with a savepoint for the outage, then resumes it from there. */
    private interface ImportPause {
        void run() throws Exception;
    }

    @Option(names = "--faults", split = ",", description = "Faults while the command runs, one after the other, the "
            + "first once it has changed a document: taskmanager (killed with kill -9, started again), mongodb (stopped "
            + "for --outage, started again), backlog (the import stopped with a savepoint for --outage while the "
            + "generation goes on, then resumed from it) (default: none).")
    List<Fault> faults = new ArrayList<>();

    @Option(names = "--outage", defaultValue = "PT30S", description = "How long MongoDB stays down, or the import stopped (default: ${DEFAULT-VALUE}).")
    Duration outage;

    private final Map<String, Object> figures = new LinkedHashMap<>();

    @Override
    protected int run(GeneratorSettings settings) throws Exception {
        String repository = settings.repository();
        String state = largestState(settings);
        FlinkSessionClient flink = session.client();
        try (Stores stores = new Stores(pipeline); MongoClient mongo = MongoClients.create(pipeline.mongodb.uri);
             SearchEngine search = SearchEngines.open(pipeline.search)) {
            stores.reset(repository);
            MongoCollection<Document> documents = mongo.getDatabase(pipeline.mongodb.database).getCollection(repository);
            long total = new BankGenerator(settings).documentCount();
            String jarId = flink.uploadJar(session.jar);
            // The import takes the documents in as they are generated, at about its own rate, as beside users.
            List<String> importArgs = Options.with(pipeline, "--group-id", "bench-acl-" + System.currentTimeMillis());
            AtomicReference<String> importJob = new AtomicReference<>(flink.run(jarId, Step.IMPORT_AND_INDEX, importArgs, null));
            ImportPause pauseImport = () -> {
                String savepoint = flink.stopWithSavepoint(importJob.get(), Duration.ofMinutes(5));
                Thread.sleep(outage.toMillis());
                importJob.set(flink.run(jarId, Step.IMPORT_AND_INDEX, importArgs, savepoint));
            };
            long importStarted = System.nanoTime();
            List<String> generate = generateArguments();
            generate.addAll(List.of("--max-docs-per-second", Double.toString(docsPerSecond)));
            String generating = flink.run(jarId, Step.GENERATE, generate, null);
            try {
                System.out.printf(Locale.ROOT, "importing %,d documents%n", total);
                COUNTS.until("imported", documents::estimatedDocumentCount, total);
                flink.awaitState(generating, "FINISHED", Duration.ofMinutes(5));
                double importRate = total / ((System.nanoTime() - importStarted) / 1e9);
                COUNTS.until("indexed", () -> stores.elasticsearchCount(repository), total);
                long below = documents.countDocuments(Filters.eq(DocumentFields.ANCESTOR_IDS, state));
                if (below < minDescendants) {
                    throw new IllegalStateException(state + " holds " + below + " documents below it, fewer than "
                            + minDescendants + ": give the run more --customers");
                }
                figures.put("documents", total);
                figures.put("state", state);
                figures.put("descendants at the start", below);
                figures.put("generate → import at the start, docs/s (baseline)", round(importRate));

                GeneratorSettings more = new GeneratorSettings(settings.seed(), settings.customers() + moreCustomers,
                        settings.statementsPerAccount(), settings.meanAccountsPerCustomer(), settings.lastPeriod(), repository);
                List<String> generateMore = generateArguments();
                generateMore.addAll(List.of("--customers", Long.toString(more.customers()), "--from-customer",
                        Long.toString(settings.customers()), "--max-docs-per-second", Double.toString(moreDocsPerSecond)));
                String generatingMore = flink.run(jarId, Step.GENERATE, generateMore, null);

                Commands commands = new Commands(flink, session.jar, MongoRepositories.sharing(mongo, pipeline.mongodb.database),
                        stores.search(), pipeline.indices(), Options.arguments(pipeline), pipeline.kafka.clientProperties());
                JsonNode status = setAcl(commands, mongo, repository, documents, state, pauseImport);
                double seconds = Duration.between(Instant.parse(status.path("started").asText()),
                        Instant.parse(status.path("completed").asText())).toMillis() / 1000.0;
                long changed = status.path("processed").asLong();
                figures.put("setAcl command", status.path("commandId").asText());
                figures.put("rounds", status.path("rounds").asLong());
                figures.put("documents changed", changed);
                figures.put("documents already right (below a block)", status.path("skipped").asLong());
                figures.put("descendants when it completed", status.path("total").asLong());
                long covered = status.path("total").asLong();
                figures.put("started → COMPLETED, s", round(seconds));
                figures.put("descendants covered, docs/s", round(covered / seconds));
                figures.put("descendants covered / generate → import at the start", round(covered / seconds / importRate));
                figures.put("changed, docs/s", round(changed / seconds));
                figures.put("documents generated meanwhile", new BankGenerator(more).documentCount() - total);

                flink.awaitState(generatingMore, "FINISHED", Duration.ofMinutes(30));
                long end = new BankGenerator(more).documentCount();
                COUNTS.until("imported, with those generated meanwhile", documents::estimatedDocumentCount, end);
                COUNTS.until("indexed, with those generated meanwhile", () -> stores.elasticsearchCount(repository), end);
                check(documents, search, repository, state);
                figures.put("dead letters (a good document never is one)", stores.deadLettersByRepository().values().stream()
                        .mapToLong(Long::longValue).sum());
            } finally {
                flink.cancel(importJob.get(), Duration.ofMinutes(2));
            }
            stores.reset(repository);
        }
        write(settings);
        return 0;
    }

    /** The state with the most documents below it in this run: the generator's customers, counted by state. */
    private static String largestState(GeneratorSettings settings) {
        BankGenerator generator = new BankGenerator(settings);
        BankModel model = generator.model();
        Map<String, Long> documentsByState = new LinkedHashMap<>();
        for (long customer = 0; customer < settings.customers(); customer++) {
            documentsByState.merge(model.customer(customer).stateCode(), generator.documentCount(customer), Long::sum);
        }
        String code = documentsByState.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        return BankGenerator.stateId(code);
    }

    /** The state's own ACL with a grant of READ to {@link #GRANTEE}, given by a setAcl command; its final status. */
    private JsonNode setAcl(Commands commands, MongoClient mongo, String repository, MongoCollection<Document> documents,
            String state, ImportPause pauseImport) throws Exception {
        Document stored = documents.find(Filters.eq(DocumentFields.KEY, state)).first();
        ObjectNode acl = (ObjectNode) JSON.readTree(stored.get(DocumentFields.ACL, Document.class).toJson());
        acl.withArray(DocumentFields.Acl.ACES).addObject().put(DocumentFields.Acl.PRINCIPAL, GRANTEE)
                .put(DocumentFields.Acl.PERMISSION, Permission.READ.name()).put(DocumentFields.Acl.GRANTED, true);
        String id = commands.setAcl(repository, state, acl);
        System.out.printf(Locale.ROOT, "setAcl on %s: command %s%n", state, id);
        CommandStore records = new CommandStore(mongo.getDatabase(pipeline.mongodb.database));
        CompletableFuture<List<String>> injected = CompletableFuture.supplyAsync(() -> inject(documents, records, id, pauseImport));
        JsonNode status;
        try (CommandReconciler.Schedule reconciling = commands.reconciler().reconciling(id)) {
            status = status(commands, id);
            while (status.path("state").asText().matches("SCHEDULED|RUNNING")) {
                Thread.sleep(500);
                status = status(commands, id);
            }
        }
        if (!status.path("state").asText().equals("COMPLETED")) {
            throw new IllegalStateException("setAcl " + id + " ended " + status);
        }
        List<String> done = injected.join();
        if (done.size() < faults.size()) {
            throw new IllegalStateException("the command completed before its faults: " + done + " of " + faults);
        }
        figures.put("faults while it ran", done.isEmpty() ? "none" : String.join("; ", done));
        return status;
    }

    /**
     * The faults, one after the other: the first once the command has changed a document, each next one once the
     * previous is over and the command has changed another; what each was, with when it began, after the command's
     * start. Stops early (what it did so far) once the command is no longer running.
     */
    private List<String> inject(MongoCollection<Document> documents, CommandStore commands, String commandId,
            ImportPause pauseImport) {
        List<String> done = new ArrayList<>();
        long started = System.nanoTime();
        long changed = 0;
        LocalServices services = LocalServices.ofThisCheckout();
        try {
            for (Fault fault : faults) {
                long before = changed;
                while ((changed = changedBy(documents, commandId)) <= before) {
                    if (!running(commands, commandId)) {
                        return done;
                    }
                    Thread.sleep(1000); // a filtered count: a scan on the local stand-in
                }
                double at = (System.nanoTime() - started) / 1e9;
                if (fault == Fault.taskmanager) {
                    new ServiceFaults(services).kill(ServiceFaults.TASKMANAGER);
                    done.add(String.format(Locale.ROOT, "TaskManager killed (kill -9) at %.0f s, restarted", at));
                } else if (fault == Fault.backlog) {
                    pauseImport.run();
                    done.add(String.format(Locale.ROOT, "import stopped with a savepoint at %.0f s for %d s while %,.0f "
                            + "docs/s were generated, resumed from it", at, outage.toSeconds(), moreDocsPerSecond));
                } else {
                    new ServiceFaults(services).down("mongodb", outage);
                    done.add(String.format(Locale.ROOT, "MongoDB down %d s from %.0f s", outage.toSeconds(), at));
                }
                System.out.println("fault: " + done.get(done.size() - 1));
            }
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return done;
        } catch (Exception e) {
            services.start(ServiceFaults.TASKMANAGER, "mongodb");
            throw new IllegalStateException("a fault could not be done or undone", e);
        }
    }

    /** Whether the command's record says it runs (true while MongoDB does not answer). */
    private static boolean running(CommandStore commands, String commandId) {
        try {
            return commands.find(commandId).map(record -> CommandStore.stateOf(record).isActive()).orElse(false);
        } catch (MongoException e) {
            return true;
        }
    }

    /** The documents the command has changed (as many as before while MongoDB does not answer). */
    private static long changedBy(MongoCollection<Document> documents, String commandId) {
        try {
            return documents.countDocuments(Filters.eq(DocumentFields.ORIGIN + "." + DocumentFields.Origin.COMMAND, commandId));
        } catch (MongoException e) {
            return -1;
        }
    }

    /** The command's status, asked again while MongoDB does not answer (one of the faults). */
    private static JsonNode status(Commands commands, String id) throws Exception {
        while (true) {
            try {
                return commands.status(id);
            } catch (MongoException e) {
                Thread.sleep(1000);
            }
        }
    }

    /** The brute-force check of the state's subtree, and the index's count of what the grantee may read. */
    private void check(MongoCollection<Document> documents, SearchEngine search, String repository, String state)
            throws Exception {
        long started = System.nanoTime();
        BruteForceAcls acls = BruteForceAcls.over(List.of(documents));
        // What the check reads of each document, no more: the local stand-in holds a query's whole answer in memory.
        List<String> mismatches = acls.mismatches(documents.find(Filters.or(Filters.eq(DocumentFields.KEY, state),
                Filters.eq(DocumentFields.ANCESTOR_IDS, state))).projection(Projections.include(DocumentFields.PARENT_ID,
                DocumentFields.ACL, DocumentFields.READ_ACL, DocumentFields.WRITE_ACL, DocumentFields.MANAGE_ACL))
                .batchSize(1000));
        long checked = documents.countDocuments(Filters.eq(DocumentFields.ANCESTOR_IDS, state)) + 1;
        figures.put("checked by brute force (the state and every document below it, at the end)", checked);
        figures.put("brute-force mismatches", mismatches.size());
        figures.put("brute-force check, s", round((System.nanoTime() - started) / 1e9));
        long inMongo = documents.countDocuments(Filters.eq(DocumentFields.READ_ACL, GRANTEE));
        ObjectNode term = JSON.createObjectNode();
        term.putObject("term").put(DocumentFields.READ_ACL, GRANTEE);
        long inIndex = search.reader().count(List.of(pipeline.indices().of(repository)), term);
        figures.put("readable by " + GRANTEE + ": MongoDB", inMongo);
        figures.put("readable by " + GRANTEE + ": index", inIndex);
        mismatches.stream().limit(10).forEach(line -> System.out.println("mismatch: " + line));
    }

    /** Counts polled every two seconds (a count is work for the store too), while they move. */
    private static final Await COUNTS = Await.stalledFor(Duration.ofMinutes(5)).every(Duration.ofSeconds(2));

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private void write(GeneratorSettings settings) throws Exception {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("date", Report.date());
        all.put("machine", Report.machine());
        all.put("customers", settings.customers());
        all.put("parallelism", pipeline.parallelism);
        all.putAll(figures);
        StringBuilder table = new StringBuilder("# ACL propagation (setAcl on a state folder while the import runs)\n\n")
                .append("Measured ").append(all.get("date")).append(" on ").append(all.get("machine")).append(". The ")
                .append("repository was imported by the pipeline (import-and-index, parallelism ").append(pipeline.parallelism)
                .append("), which keeps running; the setAcl command gives the state one more principal with READ while a ")
                .append("generate job adds ").append(moreCustomers).append(" customers at ").append(moreDocsPerSecond)
                .append(" docs/s. The baseline is the rate at which the same import took the repository in, in the same run, ")
                .append("generated at up to ").append(docsPerSecond).append(" docs/s.\n\n")
                .append("| figure | value |\n|---|---|\n");
        all.forEach((name, value) -> table.append("| ").append(name).append(" | ")
                .append(value instanceof Number n ? String.format(Locale.ROOT, n instanceof Double ? "%,.2f" : "%,d", n) : value)
                .append(" |\n"));
        Report.write(results.folder, "acl-propagation", all, table);
        System.out.println(table);
    }
}
