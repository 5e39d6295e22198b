package io.volumizer.benchmarks.security;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClients;

import io.volumizer.harness.RepositoryCheck;
import io.volumizer.loadtest.hostile.HostileUsers;
import io.volumizer.loadtest.hostile.HonestUsers;
import io.volumizer.loadtest.hostile.HeapSampler;
import io.volumizer.loadtest.hostile.Latencies;
import io.volumizer.loadtest.hostile.SecurityQueries;
import io.volumizer.loadtest.hostile.ServerReads;
import io.volumizer.ops.results.Report;
import io.volumizer.api.ApiOptions;
import io.volumizer.api.ApiServer;
import io.volumizer.api.documents.Documents;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadPolicy;
import io.volumizer.loadtest.hostile.HostileUsers.Kind;
import io.volumizer.loadtest.hostile.HostileUsers.Tally;
import io.volumizer.loadtest.hostile.SecurityQueries.Query;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.ops.demo.DemoRecord;
import io.volumizer.ops.demo.DemoRecordOptions;
import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.identity.IssuerOptions;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.options.CheckOptions;
import io.volumizer.options.Options;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.pipeline.RepositoryServicesOptions;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.mongodb.MongoRepositories;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Honest users beside hostile ones, in one run against the API started in this process on the demo's repository
 * and the local services: the API's capacity for a branch's staff (navigation and search, closed loop), then passes
 * of honest users at a fraction of it (open loop, as many users), alone (A) and beside hostile users from the same
 * address (B), alternated over rounds. Reports the honest users' latencies and the ratio of B's p95 to A's, their
 * answers refused by authentication penalties (401, 429), the hostile answers by status, this JVM's peak heap per
 * pass, and that nothing was lost or written: MongoDB's documents and the documents topic's end offsets the same
 * before and after. Writes {@code hostile.json} and {@code hostile.md}.
 */
@Command(name = "hostile-clients-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Honest users' latency beside hostile clients, against the API started in this process.")
public final class HostileClientsBenchmark implements Callable<Integer> {

    private static final double P95_TARGET = 1.25;
    /** The heap is bounded when no pass with hostile users used more than this share of -Xmx at any sample. */
    private static final double HEAP_TARGET = 0.5;
    static final long MIB = 1024 * 1024;

    /** The repository's services, as the API takes them (the local services' endpoints and the demo's topics). */
    public static final class ApiServices extends RepositoryServicesOptions {
    }

    @Mixin IssuerOptions issuer = new IssuerOptions();
    @Mixin ApiServices services = new ApiServices();
    @Mixin DemoRecordOptions record = new DemoRecordOptions();

    @Option(names = "--api-option", paramLabel = "OPTION", description = "An option of the API started in this process "
            + "besides the services above, e.g. --api-option=--max-json-bytes=2097152 (repeatable).")
    List<String> apiOptions = new ArrayList<>();

    @Option(names = "--users", defaultValue = "8", description = "Honest users, in the capacity run and in every pass "
            + "(default: ${DEFAULT-VALUE}).")
    int users;

    @Option(names = "--warm-up", defaultValue = "PT30S", description = "Closed-loop warm-up, not counted (default: ${DEFAULT-VALUE}).")
    Duration warmUp;

    @Option(names = "--capacity-run", defaultValue = "PT10S", description = "Closed-loop run that measures the API's "
            + "capacity (default: ${DEFAULT-VALUE}).")
    Duration capacityRun;

    @Option(names = "--load", defaultValue = "0.3333", description = "The honest users' rate, as a share of the capacity "
            + "(default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--pass", defaultValue = "PT60S", description = "Each pass's length, at most PT4M (a person's token "
            + "lives five minutes; each pass fetches new ones) (default: ${DEFAULT-VALUE}).")
    Duration pass;

    @Option(names = "--rounds", defaultValue = "2", description = "Rounds, each a pass A (honest users alone) then a pass B "
            + "(beside hostile users) (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--pause", defaultValue = "PT5S", description = "Pause between passes (default: ${DEFAULT-VALUE}).")
    Duration pause;

    @Option(names = "--hostile", split = ",", paramLabel = "KIND", description = "The hostile users of the B passes: "
            + "${COMPLETION-CANDIDATES} (default: all).")
    Set<Kind> hostileKinds = EnumSet.allOf(Kind.class);

    @Option(names = "--slow-bodies", defaultValue = "4", description = "Slow bodies sent at once in a pass B "
            + "(default: ${DEFAULT-VALUE}).")
    int slowBodies;

    @Option(names = "--customers-queried", defaultValue = "100", description = "Customers of the branch's state the "
            + "honest requests are about (default: ${DEFAULT-VALUE}).")
    int customersQueried;

    @Option(names = "--settle", defaultValue = "PT5S", description = "Wait after the last pass before counting what the "
            + "repository holds (default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);
    @Mixin CheckOptions check = new CheckOptions();

    /** The options of the API this run starts: the services, free ports on 127.0.0.1, then --api-option. */
    ApiOptions apiOptions() {
        List<String> arguments = new ArrayList<>(Options.arguments(services));
        arguments.addAll(List.of("--bind", "127.0.0.1", "--port", "0", "--metrics-bind", "127.0.0.1", "--metrics-port", "0",
                IssuerOptions.ISSUER, issuer.issuer.toString()));
        arguments.addAll(apiOptions);
        try {
            return Options.parseWithOverrides(new ApiOptions(), arguments);
        } catch (Options.InvalidOptionsException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), "the API's options: " + e.reason());
        }
    }

    @Override
    public Integer call() throws Exception {
        if (users < 1 || rounds < 1 || slowBodies < 0 || customersQueried < 1 || !(load > 0 && load <= 1)
                || pass.isNegative() || pass.isZero() || pass.compareTo(Duration.ofMinutes(4)) > 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--users, --rounds and --customers-queried "
                    + "must be positive, --slow-bodies 0 or more, --load in (0, 1], --pass positive and at most PT4M");
        }
        ApiOptions options = apiOptions();
        if (check.only) {
            return 0;
        }
        Instant started = Instant.now();
        double loadAtStart = HeapSampler.loadAverage();
        GeneratorSettings run = DemoRecord.read(record.file).run();
        String repository = run.repository();
        BankModel model = new BankModel(run);
        String state = SecurityQueries.busiestState(run);
        List<Query> queries = SecurityQueries.of(run, state, customersQueried);
        List<String> honest = DemoRealm.staff(state);
        Customer customer = model.customer(0);
        String customerUser = BankPrincipals.customer(customer.number());
        if (!DemoRealm.customerUsers().contains(customerUser)) {
            throw new IllegalStateException("the demo's first customer " + customerUser + " has no login in the realm "
                    + "(the demo's seed is not the realm's): run bin/volumizer demo with the default seed");
        }
        String hostileState = otherState(model, run, state);
        String staffUser = DemoRealm.staff(hostileState).get(0);
        String stateFolder = BankGenerator.stateId(hostileState);
        System.out.printf(Locale.ROOT, "hostile clients benchmark: repository %s (%d customers); honest users %s (%s), "
                + "hostile users %s, %s and %s; %d queries; -Xmx %d MiB; load average %.1f on %d cores%n", repository,
                run.customers(), String.join(", ", honest), state, customerUser, staffUser, DemoRealm.ADMIN,
                queries.size(), HeapSampler.maxHeapBytes() / MIB, loadAtStart, Runtime.getRuntime().availableProcessors());

        ExecutorService readers = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "hostile-answer-reader");
            thread.setDaemon(true);
            return thread;
        });
        Backends backends = options.openBackends();
        ApiServer.Servers servers = null;
        // The checks' own MongoDB clients, without the API's read timeout: a count on a busy machine may take longer.
        try (HeapSampler heap = new HeapSampler(); Admin kafka = Admin.create(options.kafka.clientProperties());
                MongoRepositories checked = new MongoRepositories(options.repositoryDatabases(), MongoClients::create)) {
            servers = ApiServer.create(options, backends).start(options);
            ServerReads serverReads = ServerReads.on(servers.api());
            int port = servers.api().port();
            String base = "http://127.0.0.1:" + port;
            Documents documents = new Documents(checked);
            RepositoryCheck repositoryCheck = new RepositoryCheck(documents, repository, kafka,
                    options.kafka.clientProperties(), options.registry.url, options.documentsTopic());

            // What the deletes aim at, checked so that no delete could succeed: the staff may not manage its state's
            // folder, and the root holds more live descendants than a recursive delete deletes.
            long rootDescendants = repositoryCheck.liveDescendants(BankGenerator.ROOT_ID);
            if (rootDescendants == 0) {
                throw new IllegalStateException("repository '" + repository + "' is empty: run bin/volumizer demo "
                        + "--customers 100 first");
            }
            String bigFolder = rootDescendants > options.maxRecursiveDelete ? BankGenerator.ROOT_ID : null;
            boolean staffManages = documents.find(repository, stateFolder).map(folder -> new ReadPolicy().holds(
                    Caller.of(staffUser, List.of(BankPrincipals.branch(hostileState))), folder, Permission.MANAGE)).orElse(true);
            String deletedByStaff = staffManages ? null : stateFolder;
            List<String> watched = new ArrayList<>(List.of(BankGenerator.ROOT_ID, stateFolder,
                    BankGenerator.customerId(customer)));
            RepositoryCheck.Snapshot before = repositoryCheck.take(watched);

            TokenClient tokens = issuer.client();
            HttpClient honestHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpClient hostileHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HonestUsers honestUsers = new HonestUsers(honestHttp, base, queries, users);
            HostileUsers hostileUsers = new HostileUsers(hostileHttp, base, port, readers, slowBodies);

            // A token that lives a second, sent once it is past the API's clock skew: an expired token.
            String shortLived = tokens.user(customerUser, DemoRealm.SHORT_LIVED_CLIENT);
            Instant shortLivedFetched = Instant.now();
            List<String> honestTokens = fetch(tokens, honest);
            honestUsers.closedLoop(user -> honestTokens.get(user % honestTokens.size()), warmUp);
            heap.next();
            HonestUsers.Outcome capacity = honestUsers.closedLoop(user -> honestTokens.get(user % honestTokens.size()),
                    capacityRun);
            HeapSampler.Window capacityHeap = heap.next();
            double rate = capacity.latencies().perSecond() * load;
            System.out.printf(Locale.ROOT, "  capacity: %.1f req/s with %d users (p95 %.1f ms, %d not 200); honest "
                    + "users at %.1f req/s%n", capacity.latencies().perSecond(), users,
                    capacity.latencies().percentileMillis(95), capacity.offered() - capacity.ok(), rate);

            ArrayNode passes = Report.JSON.createArrayNode();
            Map<Kind, Tally> hostileTotals = new EnumMap<>(Kind.class);
            List<Latencies> aLatencies = new ArrayList<>();
            List<Latencies> bLatencies = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            long honestRefused = 0;
            long honestErrors = 0;
            ExecutorService hostileRunner = Executors.newSingleThreadExecutor();
            try {
                for (int round = 1; round <= rounds; round++) {
                    double aP95 = 0;
                    for (boolean withHostile : List.of(false, true)) {
                        Thread.sleep(pause.toMillis());
                        List<String> passTokens = fetch(tokens, honest);
                        CompletableFuture<Map<Kind, Tally>> hostile = null;
                        if (withHostile) {
                            String customerToken = tokens.user(customerUser);
                            boolean expired = Duration.between(shortLivedFetched, Instant.now())
                                    .compareTo(options.oidc.clockSkew.plusSeconds(2)) > 0;
                            HostileUsers.Targets targets = new HostileUsers.Targets(repository, customerToken,
                                    BankGenerator.customerId(customer), HostileUsers.forged(customerToken),
                                    tokens.user(customerUser, DemoRealm.NO_AUDIENCE_CLIENT), expired ? shortLived : null,
                                    tokens.user(staffUser), deletedByStaff, tokens.user(DemoRealm.ADMIN), bigFolder);
                            hostile = CompletableFuture.supplyAsync(() -> {
                                try {
                                    return hostileUsers.run(hostileKinds, targets, pass);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                    throw new IllegalStateException(e);
                                }
                            }, hostileRunner);
                        }
                        heap.next();
                        HonestUsers.Outcome outcome = honestUsers.openLoop(user -> passTokens.get(user % passTokens.size()),
                                rate, pass);
                        Map<Kind, Tally> tallies = hostile == null ? Map.of() : hostile.get();
                        HeapSampler.Window window = heap.next();
                        if (hostile != null) {
                            Thread.sleep(500); // the API closes the hostile users' last connections
                            tallies.values().forEach(tally -> tally.readBy(serverReads));
                        }
                        String name = (withHostile ? "B" : "A") + round;
                        ObjectNode row = passes.addObject().put("pass", name).put("round", round)
                                .put("hostile", withHostile);
                        HostileTable.honestStats(row, outcome);
                        HostileTable.heapStats(row, window);
                        ObjectNode answers = withHostile ? row.putObject("hostileAnswers") : null;
                        tallies.forEach((kind, tally) -> {
                            answers.set(kind.name(), Report.JSON.valueToTree(tally.byOutcome));
                            hostileTotals.computeIfAbsent(kind, k -> new Tally()).addAll(tally);
                        });
                        honestRefused += outcome.refusedByAuthentication();
                        honestErrors += outcome.errors();
                        double p95 = outcome.latencies().percentileMillis(95);
                        if (withHostile) {
                            bLatencies.add(outcome.latencies());
                            ratios.add(p95 / aP95);
                        } else {
                            aLatencies.add(outcome.latencies());
                            aP95 = p95;
                        }
                        System.out.printf(Locale.ROOT, "  pass %s: %.1f req/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms; "
                                + "refused by authentication %d, errors %d; peak heap %d MiB%s%n", name, outcome.latencies().perSecond(),
                                outcome.latencies().percentileMillis(50), p95, outcome.latencies().percentileMillis(99),
                                outcome.refusedByAuthentication(), outcome.errors(), window.peakUsedBytes() / MIB,
                                withHostile ? "; hostile: " + tallies.entrySet().stream().map(e -> e.getKey().name()
                                        .toLowerCase(Locale.ROOT) + " " + e.getValue().byOutcome).collect(Collectors.joining(", ")) : "");
                    }
                }
            } finally {
                hostileRunner.shutdownNow();
            }
            Thread.sleep(settle.toMillis());
            RepositoryCheck.Snapshot after = repositoryCheck.take(watched);

            ObjectNode summary = Report.JSON.createObjectNode().put("started", started.toString())
                    .put("finished", Instant.now().toString());
            summary.putObject("machine").put("cores", Runtime.getRuntime().availableProcessors())
                    .put("loadAverageAtStart", loadAtStart).put("loadAverageAtEnd", HeapSampler.loadAverage())
                    .put("note", "the API, the honest and hostile users (all in this JVM) and every local service "
                            + "(Kafka, the registry, Elasticsearch, two MongoDB, S3, Flink, Keycloak) on the same cores");
            summary.put("maxHeapMiB", HeapSampler.maxHeapBytes() / MIB).put("repository", repository)
                    .put("customers", run.customers()).put("state", state).put("honestUsers", users)
                    .put("honestLogins", String.join(", ", honest)).put("distinctQueries", queries.size())
                    .put("passSeconds", pass.toSeconds()).put("rounds", rounds).put("load", load)
                    .put("hostileLogins", String.join(", ", customerUser, staffUser, DemoRealm.ADMIN));
            summary.putObject("apiLimits").put("maxJsonBytes", options.maxJsonBytes)
                    .put("maxRequestBytes", options.maxRequestBytes()).put("minBodyBytesPerSecond", options.minBodyBytesPerSecond)
                    .put("maxRecursiveDelete", options.maxRecursiveDelete)
                    .put("authPenaltyAfter", options.penalties.penaltyAfter);
            ObjectNode capacityNode = summary.putObject("capacity").put("seconds", capacityRun.toSeconds())
                    .put("warmUpSeconds", warmUp.toSeconds());
            HostileTable.honestStats(capacityNode, capacity);
            HostileTable.heapStats(capacityNode, capacityHeap);
            summary.put("honestRatePerSecond", rate);
            summary.set("passes", passes);

            Latencies a = Latencies.of(aLatencies);
            Latencies b = Latencies.of(bLatencies);
            double ratio = b.percentileMillis(95) / a.percentileMillis(95);
            ObjectNode p95 = summary.putObject("p95Ratio").put("ratio", ratio)
                    .put("min", ratios.stream().mapToDouble(Double::doubleValue).min().orElse(0))
                    .put("max", ratios.stream().mapToDouble(Double::doubleValue).max().orElse(0))
                    .put("target", P95_TARGET).put("met", ratio <= P95_TARGET);
            ratios.forEach(p95.putArray("byRound")::add);
            summary.putObject("honestRefusedByAuthentication").put("count", honestRefused).put("target", 0)
                    .put("met", honestRefused == 0);
            summary.put("honestErrors", honestErrors);
            long peakA = 0;
            long peakB = 0;
            for (JsonNode row : passes) {
                long peak = row.path("peakHeapMiB").asLong();
                if (row.path("hostile").asBoolean()) {
                    peakB = Math.max(peakB, peak);
                } else {
                    peakA = Math.max(peakA, peak);
                }
            }
            summary.putObject("heap").put("maxHeapMiB", HeapSampler.maxHeapBytes() / MIB).put("peakAloneMiB", peakA)
                    .put("peakBesideHostileMiB", peakB).put("target", HEAP_TARGET)
                    .put("met", peakB <= HEAP_TARGET * HeapSampler.maxHeapBytes() / MIB);

            ObjectNode hostileNode = summary.putObject("hostile");
            long hostileAccepted = 0;
            long hostileInternal = 0;
            for (Map.Entry<Kind, Tally> entry : hostileTotals.entrySet()) {
                Kind kind = entry.getKey();
                Tally tally = entry.getValue();
                Latencies latencies = tally.latencies();
                ObjectNode node = hostileNode.putObject(kind.name()).put("description", kind.description)
                        .put("intervalMillis", kind.interval.toMillis())
                        .put("threads", kind == Kind.SLOW_BODY ? slowBodies : 1).put("requests", tally.requests())
                        .put("p50Millis", latencies.percentileMillis(50)).put("maxMillis", latencies.percentileMillis(100));
                if (tally.maxBytesSentBeforeAnswer >= 0) {
                    long[] reads = tally.serverReads();
                    node.put("maxBytesSentBeforeAnswer", tally.maxBytesSentBeforeAnswer).put("connectionsRead", reads.length)
                            .put("apiReadMedianBytes", reads.length == 0 ? -1 : reads[(reads.length - 1) / 2])
                            .put("apiReadMaxBytes", reads.length == 0 ? -1 : reads[reads.length - 1]);
                }
                node.set("answers", Report.JSON.valueToTree(tally.byOutcome));
                hostileAccepted += tally.byOutcome.entrySet().stream().filter(e -> e.getKey().startsWith("2"))
                        .mapToLong(Map.Entry::getValue).sum();
                hostileInternal += tally.byOutcome.entrySet().stream().filter(e -> e.getKey().startsWith("500"))
                        .mapToLong(Map.Entry::getValue).sum();
            }
            summary.putObject("hostileInternalErrors").put("count", hostileInternal).put("target", 0)
                    .put("met", hostileInternal == 0);
            ArrayNode kinds = summary.putArray("hostileKinds");
            hostileKinds.forEach(kind -> kinds.add(kind.name()));
            List<String> skipped = new ArrayList<>();
            if (bigFolder == null && hostileKinds.contains(Kind.DELETE_OVER_CAP)) {
                skipped.add(Kind.DELETE_OVER_CAP.name() + ": the root holds " + rootDescendants + " live descendants, "
                        + "not more than --max-recursive-delete " + options.maxRecursiveDelete);
            }
            if (deletedByStaff == null && hostileKinds.contains(Kind.DELETE_WITHOUT_MANAGE)) {
                skipped.add(Kind.DELETE_WITHOUT_MANAGE.name() + ": " + staffUser + " may manage " + stateFolder);
            }
            skipped.forEach(summary.putArray("hostileSkipped")::add);

            Map<String, Long> appended = repositoryCheck.eventsBetween(before, after);
            boolean nothingLost = before.documents() == after.documents() && before.live() == after.live()
                    && before.liveDescendants().equals(after.liveDescendants())
                    && before.folderLive().equals(after.folderLive()) && appended.isEmpty() && hostileAccepted == 0;
            ObjectNode lost = summary.putObject("nothingLost").put("met", nothingLost).put("hostileAccepted", hostileAccepted)
                    .put("topic", options.documentsTopic()).put("topicEndOffsetsBefore", before.topicEndOffsets())
                    .put("topicEndOffsetsAfter", after.topicEndOffsets());
            lost.set("eventsAppended", Report.JSON.valueToTree(appended));
            lost.set("before", Report.JSON.valueToTree(before));
            lost.set("after", Report.JSON.valueToTree(after));

            String markdown = HostileTable.markdown(summary);
            Report.write(results.folder, "hostile", summary, markdown);
            System.out.println();
            System.out.println(markdown);
            return 0;
        } finally {
            if (servers != null) {
                servers.stop();
            }
            backends.close();
            readers.shutdownNow();
        }
    }

    /** A state of the run other than {@code state}: the first other one a customer lives in. */
    private static String otherState(BankModel model, GeneratorSettings run, String state) {
        for (long i = 0; i < run.customers(); i++) {
            String code = model.customer(i).stateCode();
            if (!code.equals(state)) {
                return code;
            }
        }
        return DemoRealm.stateCodes().stream().filter(code -> !code.equals(state)).findFirst().orElseThrow();
    }

    private static List<String> fetch(TokenClient tokens, List<String> users) throws Exception {
        List<String> fetched = new ArrayList<>();
        for (String user : users) {
            fetched.add(tokens.user(user));
        }
        return fetched;
    }
}
