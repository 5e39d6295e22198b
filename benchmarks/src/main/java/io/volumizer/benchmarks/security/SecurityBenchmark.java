package io.volumizer.benchmarks.security;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.loadtest.hostile.Latencies;
import io.volumizer.loadtest.hostile.SecurityQueries;
import io.volumizer.ops.results.Report;
import io.volumizer.api.auth.OidcOptions;
import io.volumizer.api.auth.TokenValidator;
import io.volumizer.loadtest.hostile.SecurityQueries.Kind;
import io.volumizer.loadtest.hostile.SecurityQueries.Query;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.demo.DemoRecord;
import io.volumizer.ops.demo.DemoRecordOptions;
import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.client.ApiTarget;
import io.volumizer.ops.identity.IssuerOptions;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.options.CheckOptions;
import io.volumizer.options.ResultsOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What security costs a reader, in one run against the API on the demo's repository: the same search and navigation
 * requests as a branch's staff user (every Elasticsearch query filtered by its principals on {@code readAcl}, every
 * MongoDB read checked) and as an administrator (no filter), in rounds that alternate which caller goes first;
 * throughput and p95 of the branch user against the administrator's, measured in the same run. Then token
 * validation's share of a request: {@link TokenValidator#validate} timed in this process on the branch user's token
 * against the provider's keys, over the mean request time measured before. Writes {@code security.json} and
 * {@code security.md}.
 */
@Command(name = "security-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Search and navigation as a branch user (ACL filter) against an administrator (none).")
public final class SecurityBenchmark implements Callable<Integer> {

    private static final double THROUGHPUT_TARGET = 0.8;
    private static final double P95_TARGET = 1.25;

    /** The API, and the realm both callers log in at. */
    @Mixin ApiTarget target = new ApiTarget();
    @Mixin DemoRecordOptions record = new DemoRecordOptions();

    @Option(names = "--rounds", defaultValue = "6", description = "Rounds, each caller once per round (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--requests", defaultValue = "2000",
            description = "Requests of each kind per caller and round (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--concurrency", defaultValue = "4", description = "Requests in flight at once (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--customers-queried", defaultValue = "100",
            description = "Customers of the branch's state the requests are about (default: ${DEFAULT-VALUE}).")
    int customersQueried;

    @Option(names = "--validations", defaultValue = "50000",
            description = "Token validations timed, after as many to warm up (default: ${DEFAULT-VALUE}).")
    int validations;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);
    @Mixin CheckOptions check = new CheckOptions();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A caller: who it logs in as. */
    private record Caller(String label, String user) {
    }

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || requests < 1 || concurrency < 1 || customersQueried < 1 || validations < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--rounds, --requests, --concurrency, --customers-queried and --validations must be positive");
        }
        if (check.only) {
            return 0;
        }
        Instant started = Instant.now();
        GeneratorSettings run = DemoRecord.read(record.file).run();
        String state = SecurityQueries.busiestState(run);
        List<Query> queries = SecurityQueries.of(run, state, customersQueried);
        Caller branch = new Caller("branch", DemoRealm.staff(state).get(0));
        Caller administrator = new Caller("administrator", DemoRealm.ADMIN);
        TokenClient tokens = target.issuer.client();
        Map<Kind, List<Query>> byKind = new EnumMap<>(Kind.class);
        queries.forEach(query -> byKind.computeIfAbsent(query.kind(), kind -> new ArrayList<>()).add(query));
        System.out.printf(Locale.ROOT, "security benchmark: repository %s (%d customers), %s (%s) against %s; %d queries%n",
                run.repository(), run.customers(), branch.user, state, administrator.user, queries.size());

        Map<Kind, Map<String, List<Latencies>>> measured = new EnumMap<>(Kind.class);
        // Warm-up, not counted: a round's worth for each caller (the API's first thousands of requests compile).
        for (Caller caller : List.of(branch, administrator)) {
            String token = tokens.user(caller.user);
            byKind.values().forEach(kindQueries -> measure(kindQueries, token, requests));
        }
        for (int round = 0; round < rounds; round++) {
            List<Caller> order = round % 2 == 0 ? List.of(branch, administrator) : List.of(administrator, branch);
            for (Caller caller : order) {
                // A person's token lives five minutes: one per round, fetched outside the measure.
                String token = tokens.user(caller.user);
                for (Map.Entry<Kind, List<Query>> kind : byKind.entrySet()) {
                    Latencies latencies = measure(kind.getValue(), token, requests);
                    measured.computeIfAbsent(kind.getKey(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(caller.label, c -> new ArrayList<>()).add(latencies);
                    System.out.printf(Locale.ROOT, "  round %d %-13s %-10s %8.1f req/s  p95 %6.1f ms%n", round + 1,
                            caller.label, kind.getKey().name().toLowerCase(Locale.ROOT), latencies.perSecond(),
                            latencies.percentileMillis(95));
                }
            }
        }
        double validateMicros = validationMicros(tokens.user(branch.user));

        ObjectNode summary = Report.JSON.createObjectNode().put("started", started.toString())
                .put("repository", run.repository()).put("customers", run.customers()).put("branchUser", branch.user)
                .put("state", state).put("administrator", administrator.user).put("rounds", rounds)
                .put("requestsPerCallerKindAndRound", requests).put("concurrency", concurrency)
                .put("distinctQueries", queries.size());
        ObjectNode kinds = summary.putObject("kinds");
        double branchMeanMillis = 0;
        long branchCount = 0;
        for (Map.Entry<Kind, Map<String, List<Latencies>>> kind : measured.entrySet()) {
            Latencies filtered = Latencies.of(kind.getValue().get(branch.label));
            Latencies unfiltered = Latencies.of(kind.getValue().get(administrator.label));
            ObjectNode row = kinds.putObject(kind.getKey().name().toLowerCase(Locale.ROOT));
            stats(row.putObject(branch.label), filtered);
            stats(row.putObject(administrator.label), unfiltered);
            double throughputRatio = filtered.perSecond() / unfiltered.perSecond();
            double p95Ratio = filtered.percentileMillis(95) / unfiltered.percentileMillis(95);
            row.put("throughputRatio", throughputRatio).put("throughputTarget", THROUGHPUT_TARGET)
                    .put("p95Ratio", p95Ratio).put("p95Target", P95_TARGET)
                    .put("met", throughputRatio >= THROUGHPUT_TARGET && p95Ratio <= P95_TARGET);
            branchMeanMillis += filtered.meanMillis() * filtered.count();
            branchCount += filtered.count();
        }
        branchMeanMillis /= Math.max(branchCount, 1);
        summary.putObject("tokenValidation").put("validations", validations).put("meanMicros", validateMicros)
                .put("branchRequestMeanMillis", branchMeanMillis)
                .put("shareOfRequest", validateMicros / 1000.0 / branchMeanMillis);
        String markdown = markdown(summary);
        Report.write(results.folder, "security", summary, markdown);
        System.out.println();
        System.out.println(markdown);
        return 0;
    }

    /** {@code count} requests of {@code queries} (in turn) with {@code concurrency} in flight; each must be a 200. */
    private Latencies measure(List<Query> queries, String token, int count) {
        long[] micros = new long[count];
        AtomicInteger next = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(concurrency);
        try {
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int client = 0; client < concurrency; client++) {
                running.add(clients.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        micros[i] = request(queries.get(i % queries.size()), token);
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
            return new Latencies(micros, System.nanoTime() - start);
        } catch (Exception e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause().getMessage() : e.getMessage(), e);
        } finally {
            clients.shutdownNow();
        }
    }

    private long request(Query query, String token) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(target.api + query.path())).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Accept", "application/json").GET().build();
        long start = System.nanoTime();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        long micros = (System.nanoTime() - start) / 1000;
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + query.path() + ": HTTP " + response.statusCode() + " "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        return micros;
    }

    /** The mean time of one validation of {@code token}, as the API validates every request's, in microseconds. */
    private double validationMicros(String token) throws Exception {
        OidcOnly options = new OidcOnly();
        new CommandLine(options).parseArgs(IssuerOptions.ISSUER, target.issuer.issuer.toString());
        TokenValidator validator = new TokenValidator(options.oidc);
        for (int i = 0; i < validations; i++) {
            validator.validate(token);
        }
        long start = System.nanoTime();
        for (int i = 0; i < validations; i++) {
            validator.validate(token);
        }
        return (System.nanoTime() - start) / 1000.0 / validations;
    }

    /** The API's OIDC options with their defaults, as its command line parses them. */
    @Command
    static final class OidcOnly {
        @Mixin OidcOptions oidc = new OidcOptions();
    }

    private static void stats(ObjectNode node, Latencies latencies) {
        node.put("requests", latencies.count()).put("perSecond", latencies.perSecond())
                .put("meanMillis", latencies.meanMillis()).put("p50Millis", latencies.percentileMillis(50))
                .put("p95Millis", latencies.percentileMillis(95)).put("p99Millis", latencies.percentileMillis(99));
    }

    static String markdown(ObjectNode summary) {
        StringBuilder text = new StringBuilder("## Security: a branch user (ACL filter) against an administrator (none)\n\n");
        text.append(String.format(Locale.ROOT, "Repository `%s` (%d customers); %s (branch of %s) and %s; %d rounds "
                        + "alternating who goes first, %d requests of each kind per caller and round, %d in flight, over "
                        + "%d distinct requests; started %s.%n%n", summary.path("repository").asText(),
                summary.path("customers").asLong(), summary.path("branchUser").asText(), summary.path("state").asText(),
                summary.path("administrator").asText(), summary.path("rounds").asInt(),
                summary.path("requestsPerCallerKindAndRound").asInt(), summary.path("concurrency").asInt(),
                summary.path("distinctQueries").asInt(), summary.path("started").asText()));
        text.append("| requests | caller | req/s | mean ms | p50 ms | p95 ms | p99 ms | throughput ratio (≥ 0.8) | p95 ratio (≤ 1.25) |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        summary.path("kinds").fields().forEachRemaining(kind -> {
            for (String caller : List.of("branch", "administrator")) {
                var stats = kind.getValue().path(caller);
                boolean first = caller.equals("branch");
                text.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f | %.2f | %.2f | %s | %s |%n",
                        first ? kind.getKey() : "", caller, stats.path("perSecond").asDouble(),
                        stats.path("meanMillis").asDouble(), stats.path("p50Millis").asDouble(),
                        stats.path("p95Millis").asDouble(), stats.path("p99Millis").asDouble(),
                        first ? String.format(Locale.ROOT, "%.2f× %s", kind.getValue().path("throughputRatio").asDouble(),
                                kind.getValue().path("throughputRatio").asDouble() >= THROUGHPUT_TARGET ? "met" : "NOT met") : "",
                        first ? String.format(Locale.ROOT, "%.2f× %s", kind.getValue().path("p95Ratio").asDouble(),
                                kind.getValue().path("p95Ratio").asDouble() <= P95_TARGET ? "met" : "NOT met") : ""));
            }
        });
        var validation = summary.path("tokenValidation");
        text.append(String.format(Locale.ROOT, "%nToken validation (signature, issuer, audience, expiry; keys cached): "
                        + "%.1f µs per token over %d validations in one thread, against a branch user's mean request of "
                        + "%.2f ms: %.2f%% of a request.%n", validation.path("meanMicros").asDouble(),
                validation.path("validations").asLong(), validation.path("branchRequestMeanMillis").asDouble(),
                100 * validation.path("shareOfRequest").asDouble()));
        return text.toString();
    }
}
