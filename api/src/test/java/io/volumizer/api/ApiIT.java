package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import io.javalin.router.Endpoint;
import io.javalin.router.ParsedEndpoint;
import io.volumizer.api.documents.RecursiveDelete;
import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.internal.Correlation;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.throttle.hold.HoldMetrics;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.commands.CommandStore;

/**
 * The API against the real local services. The repository it reads is made by the real pipeline: the generate
 * and import-and-index jobs are submitted to the session cluster with {@code bin/volumizer job submit}, and the
 * import-and-index job keeps running so that the API's event-sourced writes are applied.
 */
class ApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static LocalPipeline pipeline;
    private static String run;
    private static String repository;
    private static GeneratorSettings settings;
    private static List<DocumentEvent> generated;
    private static LocalApi local;
    private static Javalin api;
    private static Backends backends;
    private static String base;
    /** The management port of the API that {@link #base} names: its metrics. */
    private static String management;

    @BeforeAll
    static void pipelineAndApi() throws Exception {
        // Sharded by customer number, as a live repository of the published layout: every test runs on three shards.
        pipeline = new LocalPipeline("api", 3, 6, 6, """
                repositories:
                  ${repository}:
                    index: {shards: 3, replicas: 0, routing: customerNumber}
                routing:
                  - to: ${repository}
                """);
        run = pipeline.run;
        repository = pipeline.repository;
        settings = pipeline.settings;
        generated = pipeline.generated;
        local = pipeline.api();
        api = local.servers.api();
        backends = local.backends;
        base = local.base;
        management = local.management;
    }

    @AfterAll
    static void stop() throws Exception {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    static ApiOptions options(String... overrides) {
        return pipeline.apiOptions(overrides);
    }

    // ---- HTTP helpers

    /** Sends {@code request} with the service's token (an administrator's) unless it names its own. */
    private static HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.timeout(Duration.ofSeconds(60)).build();
        if (built.headers().firstValue("Authorization").isEmpty()) {
            built = HttpRequest.newBuilder(built, (name, value) -> true).header("Authorization", "Bearer " + Tokens.service())
                    .build();
        }
        return HTTP.send(built, HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Sends a request without a token. */
    private static HttpResponse<byte[]> anonymous(String method, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The metrics of the API {@link #base} names, from its management port. */
    private static String metrics() throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(management + ApiMetrics.PATH)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request);
    }

    private static HttpResponse<byte[]> write(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request);
    }

    private static String[] auth(String... more) {
        List<String> headers = new ArrayList<>(List.of("Authorization", "Bearer " + Tokens.service()));
        headers.addAll(List.of(more));
        return headers.toArray(String[]::new);
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws IOException {
        return JSON.readTree(response.body());
    }

    private static JsonNode search(String query) throws Exception {
        HttpResponse<byte[]> response = get("/api/v1/search?" + query);
        assertThat(response.statusCode()).as("search %s: %s", query, new String(response.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        return json(response);
    }

    private static void assertError(HttpResponse<byte[]> response, int status, String field) throws IOException {
        String body = new String(response.body(), StandardCharsets.UTF_8);
        assertThat(response.statusCode()).as(body).isEqualTo(status);
        JsonNode error = JSON.readTree(body);
        assertThat(error.path("message").asText()).as(body).isNotBlank();
        assertThat(error.path("error").asText()).as("a documented code of its status: " + body)
                .isIn(ApiException.CODES.get(status));
        assertThat(error.path(Correlation.FIELD).asText()).as(body)
                .isEqualTo(response.headers().firstValue(Correlation.HEADER).orElseThrow());
        if (field != null) {
            assertThat(error.path("field").asText()).as(body).isEqualTo(field);
        }
    }

    private static <T> void awaitValue(String what, Supplier<T> actual, T expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        T value = actual.get();
        while (!expected.equals(value) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            value = actual.get();
        }
        assertThat(value).as(what).isEqualTo(expected);
    }

    private static Supplier<Long> unchecked(CheckedSupplier supplier) {
        return () -> {
            try {
                return supplier.get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private interface CheckedSupplier {
        long get() throws Exception;
    }

    private static DocumentEvent first(String type) {
        return generated.stream().filter(d -> d.getType().equals(type)).findFirst().orElseThrow();
    }

    /** The account writes go under, so that the read tests see the generated children only. */
    private static String writableAccount() {
        return writableAccountEvent().getId();
    }

    private static DocumentEvent writableAccountEvent() {
        return generated.stream().filter(d -> d.getType().equals("Account")).reduce((a, b) -> b).orElseThrow();
    }

    private static String documents() {
        return "/api/v1/" + repository + "/documents";
    }

    // ---- reads

    @Test
    void healthReadinessAndOpenApi() throws Exception {
        assertThat(get("/health/live").statusCode()).isEqualTo(200);
        HttpResponse<byte[]> ready = get("/health/ready");
        assertThat(ready.statusCode()).as(new String(ready.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        assertThat(json(ready).fieldNames()).toIterable().as("up or down, no backend named").containsExactly("status");
        HttpResponse<byte[]> details = HTTP.send(HttpRequest.newBuilder(URI.create(management + "/health/ready")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(json(details).path("backends").path("kafka").asText()).as("on the management port").isEqualTo("UP");

        JsonNode openApi = json(get("/api/v1/openapi.json"));
        assertThat(openApi.path("openapi").asText()).startsWith("3.");
        Set<String> paths = new HashSet<>();
        openApi.path("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(paths).containsExactlyInAnyOrder("/health/live", "/health/ready", "/api/v1/openapi.json",
                "/api/v1/search", "/api/v1/{repository}/search", "/api/v1/{repository}/documents",
                "/api/v1/{repository}/documents/{id}", "/api/v1/{repository}/documents/{id}/children",
                "/api/v1/{repository}/documents/{id}/ancestors", "/api/v1/{repository}/documents/{id}/blob",
                "/api/v1/documents/{id}", "/api/v1/documents/{id}/children", "/api/v1/documents/{id}/ancestors",
                "/api/v1/documents/{id}/blob",
                "/api/v1/{repository}/reindex", "/api/v1/{repository}/bulk", "/api/v1/bulk/{commandId}",
                "/api/v1/bulk/{commandId}/abort", "/api/v1/bulk/{commandId}/resume", "/api/v1/bulk/{commandId}/retry",
                "/api/v1/admin/throttle");
    }

    @Test
    void metricsCountRequestsByRouteAndStatusWithTheBackendsAndTheAdmissionClasses() throws Exception {
        DocumentEvent account = first("Account");
        assertThat(get(documents() + "/" + account.getId()).statusCode()).isEqualTo(200);
        assertThat(get(documents() + "/no-such-document").statusCode()).isEqualTo(404);
        assertThat(get("/api/v1/search?q=statement").statusCode()).isEqualTo(200);

        String metrics = metrics();
        String route = "route=\"/api/v1/{repository}/documents/{id}\"";
        assertThat(metrics.lines().filter(l -> l.startsWith("volumizer_api_requests_seconds_count{"))
                .filter(l -> l.contains(route) && l.contains("method=\"GET\"")))
                .as("one series per route and status, never per id")
                .anyMatch(l -> l.contains("status=\"200\"")).anyMatch(l -> l.contains("status=\"404\""))
                .noneMatch(l -> l.contains(account.getId()));
        assertThat(metrics).contains("volumizer_api_requests_seconds_bucket{", "volumizer_api_in_flight{class=\"reads\"}",
                "volumizer_api_refused_total{class=\"search\"}", "mongodb_driver_commands_seconds_count{",
                "volumizer_api_elasticsearch_requests_seconds_count ", "jvm_memory_used_bytes{", "jvm_gc_");
    }

    /** Metric names in the dashboard's queries: Volumizer's, Flink's, the JVM's and the MongoDB driver's. */
    private static final Pattern QUERIED_METRIC = Pattern.compile("\\b(?:flink|volumizer|jvm|mongodb)_[A-Za-z0-9_]+");

    @Test
    void everyMetricTheDashboardQueriesIsExportedWhileAnImportRuns() throws Exception {
        // One call to each backend, so that the API's backend timers exist whatever ran before.
        assertThat(get(documents() + "/" + first("Account").getId()).statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/search?q=account").statusCode()).isEqualTo(200);
        // The hold controller's, as bin/volumizer throttle <step> --hold-p95 serves them beside the API's.
        int holdPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            holdPort = free.getLocalPort();
        }
        Set<String> exported;
        try (HoldMetrics hold = new HoldMetrics(0.05).serve(holdPort)) {
            exported = PrometheusScrape.of(System.getProperty("volumizer.flink.metrics")
                    + "," + URI.create(management).getAuthority() + ",127.0.0.1:" + holdPort).names();
        }

        Set<String> queried = new TreeSet<>();
        JsonNode dashboard = JSON.readTree(Path.of(System.getProperty("volumizer.dashboard",
                "../helm/volumizer/dashboards/volumizer.json")).toFile());
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                QUERIED_METRIC.matcher(target.path("expr").asText()).results().forEach(m -> queried.add(m.group()));
            }
        }
        assertThat(queried).as("metrics the dashboard queries").hasSizeGreaterThanOrEqualTo(15);
        assertThat(exported).as("metrics the Flink processes and the API export").containsAll(queried);
    }

    @Test
    void getReturnsTheGeneratedDocumentWithItsVersionAsETag() throws Exception {
        DocumentEvent account = first("Account");
        HttpResponse<byte[]> response = get(documents() + "/" + account.getId());
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode document = json(response);
        assertThat(document.path("id").asText()).isEqualTo(account.getId());
        assertThat(document.path("parentId").asText()).isEqualTo(account.getParentId());
        assertThat(document.path("name").asText()).isEqualTo(account.getName());
        assertThat(document.path("title").asText()).isEqualTo(account.getTitle());
        assertThat(document.path("properties").path("accountNumber").asText())
                .isEqualTo(account.getProperties().get("accountNumber"));
        assertThat(response.headers().firstValue("ETag")).contains("\"1\"");
        assertThat(get(documents() + "/" + account.getId(), "If-None-Match", "\"1\"").statusCode()).isEqualTo(304);

        assertError(get(documents() + "/no-such-document"), 404, null);
        assertError(get("/api/v1/" + repository + "/nothing/here"), 404, null);
        assertError(get(documents() + "/" + account.getId() + "?verbose=true"), 400, "verbose");
    }

    @Test
    void childrenComeInKeysetPagesByNameAndByDate() throws Exception {
        DocumentEvent account = first("Account");
        List<String> expected = generated.stream().filter(d -> account.getId().equals(d.getParentId()))
                .map(DocumentEvent::getName).sorted().toList();
        List<String> names = new ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            JsonNode page = json(get(documents() + "/" + account.getId() + "/children?limit=2"
                    + (next == null ? "" : "&cursor=" + next)));
            page.path("children").forEach(child -> names.add(child.path("name").asText()));
            next = page.path("next").isNull() ? null : page.path("next").asText();
            pages++;
        } while (next != null && pages < 20);
        assertThat(names).isEqualTo(expected);

        JsonNode byDate = json(get(documents() + "/" + account.getId() + "/children?sort=date&limit=50"));
        List<String> modified = new ArrayList<>();
        byDate.path("children").forEach(child -> modified.add(child.path("modified").asText()));
        assertThat(modified).hasSize(expected.size()).isSortedAccordingTo(java.util.Comparator.reverseOrder());

        String firstPage = json(get(documents() + "/" + account.getId() + "/children?limit=1")).path("next").asText();
        assertError(get(documents() + "/" + account.getId() + "/children?sort=date&cursor=" + firstPage), 400, "cursor");
        assertError(get(documents() + "/" + account.getId() + "/children?cursor=garbage"), 400, "cursor");
        assertError(get(documents() + "/" + account.getId() + "/children?limit=51"), 400, "limit");
        assertError(get(documents() + "/" + account.getId() + "/children?limit=two"), 400, "limit");
        assertError(get(documents() + "/" + account.getId() + "/children?sort=size"), 400, "sort");
        assertError(get(documents() + "/no-such-document/children"), 404, null);
    }

    @Test
    void ancestorsAreTheBreadcrumbFromTheRoot() throws Exception {
        DocumentEvent statement = first("Statement");
        JsonNode ancestors = json(get(documents() + "/" + statement.getId() + "/ancestors")).path("ancestors");
        DocumentEvent account = generated.stream().filter(d -> d.getId().equals(statement.getParentId())).findFirst().orElseThrow();
        DocumentEvent customer = generated.stream().filter(d -> d.getId().equals(account.getParentId())).findFirst().orElseThrow();
        List<String> ids = new ArrayList<>();
        ancestors.forEach(a -> ids.add(a.path("id").asText()));
        assertThat(ids).containsExactly(BankGenerator.ROOT_ID, customer.getParentId(), customer.getId(), account.getId());
        assertThat(ancestors.path(3).path("name").asText()).isEqualTo(account.getName());
    }

    @Test
    void blobStoredByTheImportInS3IsServedByteForByte() throws Exception {
        DocumentEvent statement = first("Statement");
        byte[] rendered = new BankGenerator(settings).blob(statement.getBlob().getKey());
        String digest = BlobStore.sha256(rendered);
        assertThat(json(get(documents() + "/" + statement.getId())).path("blob").path("digest").asText())
                .as("the import rendered the statement and recorded its digest").isEqualTo(digest);
        try (var s3 = LocalPipeline.s3()) {
            assertThat(s3.headObject(b -> b.bucket(LocalPipeline.BUCKET).key(run + "/" + BlobStore.relativePath(digest)))
                    .contentLength()).as("the rendered statement is in the bucket").isEqualTo(rendered.length);
        }
        HttpResponse<byte[]> blob = get(documents() + "/" + statement.getId() + "/blob");
        assertThat(blob.statusCode()).isEqualTo(200);
        assertThat(blob.headers().firstValue("Content-Type")).contains("application/pdf");
        assertThat(blob.headers().firstValue("Content-Disposition").orElseThrow()).startsWith("inline;");
        assertThat(blob.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(blob.body()).isEqualTo(rendered);
        assertError(get(documents() + "/" + first("Account").getId() + "/blob"), 404, null);
    }

    @Test
    void searchFindsFiltersSortsPagesAndAggregates() throws Exception {
        DocumentEvent customer = first("CustomerFolder");
        String lastName = (String) customer.getProperties().get("lastName");
        String state = customer.getParentId().substring("st-".length());

        JsonNode found = search("repository=" + repository + "&q=" + URLEncoder.encode(lastName, StandardCharsets.UTF_8)
                + "&aggs=type,state,month&limit=50");
        assertThat(found.path("hits").findValuesAsText("id")).contains(customer.getId());
        assertThat(found.path("aggs").path("state").findValuesAsText("key")).contains(state);
        assertThat(found.path("aggs").path("type").findValuesAsText("key")).contains("Statement", "CustomerFolder");
        assertThat(found.path("aggs").path("month").size()).isPositive();

        JsonNode statements = search("repository=" + repository + "&type=Statement&state=" + state.toLowerCase() + "&limit=50");
        statements.path("hits").forEach(hit -> assertThat(hit.path("type").asText()).isEqualTo("Statement"));
        assertThat(statements.path("total").path("value").asLong()).isPositive();

        // search_after pages: every statement once, in date order.
        long statementCount = generated.stream().filter(d -> d.getType().equals("Statement")).count();
        List<String> ids = new ArrayList<>();
        List<String> created = new ArrayList<>();
        String next = null;
        for (int page = 0; page < 100; page++) {
            JsonNode hits = search("repository=" + repository + "&type=Statement&sort=-date&limit=7"
                    + (next == null ? "" : "&cursor=" + next));
            hits.path("hits").forEach(hit -> {
                ids.add(hit.path("id").asText());
                created.add(hit.path("created").asText());
            });
            next = hits.path("next").isNull() ? null : hits.path("next").asText();
            if (next == null) {
                break;
            }
        }
        assertThat(ids).hasSize((int) statementCount).doesNotHaveDuplicates();
        assertThat(created).isSortedAccordingTo(java.util.Comparator.reverseOrder());

        // Property sharding: a search carrying the customer number asks that customer's shard alone, and finds all
        // of the customer's documents there; a search without it asks every shard. Search answers show which.
        String number = (String) customer.getProperties().get(BankGenerator.CUSTOMER_NUMBER);
        long ofCustomer = generated.stream()
                .filter(d -> number.equals(d.getProperties().get(BankGenerator.CUSTOMER_NUMBER))).count();
        JsonNode targeted = search("customer=" + number + "&limit=50&aggs=type,repository");
        assertThat(targeted.path("shards").path("total").asInt()).isEqualTo(1);
        assertThat(targeted.path("shards").path("successful").asInt()).isEqualTo(1);
        assertThat(targeted.path("total").path("value").asLong()).isEqualTo(ofCustomer).isGreaterThan(1);
        assertThat(targeted.path("aggs").path("repository").findValuesAsText("key")).containsExactly(repository);
        JsonNode fanOut = search("repository=" + repository + "&type=Statement&limit=1");
        assertThat(fanOut.path("shards").path("total").asInt()).isEqualTo(3);
        Object other = generated.stream().filter(d -> d.getType().equals("CustomerFolder") && d != customer)
                .findFirst().orElseThrow().getProperties().get(BankGenerator.CUSTOMER_NUMBER);
        JsonNode twoCustomers = search("customer=" + number + "," + other + "&limit=1");
        assertThat(twoCustomers.path("shards").path("total").asInt()).as("two routing values").isEqualTo(3);

        JsonNode oneRepository = json(get("/api/v1/" + repository + "/search?type=Root"));
        assertThat(oneRepository.path("hits").findValuesAsText("id")).containsExactly(BankGenerator.ROOT_ID);
        JsonNode none = search("repository=" + repository + "&from=2000-01-01&to=2000-12-31");
        assertThat(none.path("total").path("value").asLong()).isZero();

        // User text is a JSON value, never part of the query's syntax.
        JsonNode injected = search("repository=" + repository + "&q=" + URLEncoder.encode("x\"}},{\"match_all\":{}}]", StandardCharsets.UTF_8).replace("%22", "%5C%22"));
        assertThat(injected.path("total").path("value").asLong()).isZero();

        assertError(get("/api/v1/search?limit=51"), 400, "limit");
        assertError(get("/api/v1/search?q=%22unterminated"), 400, "q");
        assertError(get("/api/v1/search?q=(a"), 400, "q");
        assertError(get("/api/v1/search?aggs=colour"), 400, "aggs");
        assertError(get("/api/v1/search?from=yesterday"), 400, "from");
        assertError(get("/api/v1/search?from=2025-02-01&to=2025-01-01"), 400, "from");
        assertError(get("/api/v1/search?state=California"), 400, "state");
        assertError(get("/api/v1/search?sort=size"), 400, "sort");
        assertError(get("/api/v1/search?cursor=abc"), 400, "cursor");
        assertError(get("/api/v1/search?qq=a"), 400, "qq");
        assertError(get("/api/v1/search?repository=Bad!"), 400, "repository");
        assertError(get("/api/v1/nosuchrepository" + run + "/search"), 404, null);
    }

    // ---- the read seam

    /** GET routes that answer with no document nor part of one. */
    /** Routes that read no document: health, the API's description, the throttles (an administrator's). */
    private static final Set<String> NOT_READS = Set.of("/health/live", "/health/ready", "/api/v1/openapi.json",
            "/api/v1/admin/throttle");
    private static final Pattern READ_GRANTS = Pattern.compile("volumizer_api_read_grants_total\\{(.*)} (\\S+)");
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{(\\w+)}");

    @Test
    void everyReadRouteOfTheOpenApiDocumentGoesThroughTheReadSeam() throws Exception {
        Set<String> documented = new TreeSet<>();
        json(get("/api/v1/openapi.json")).path("paths").fields().forEachRemaining(path -> {
            if (path.getValue().has("get")) {
                documented.add(path.getKey());
            }
        });
        // Javalin lists its routes in its private configuration only: enough to see that the document misses none.
        Set<String> served = api.unsafeConfig().pvt.internalRouter.allHttpHandlers().stream().map(ParsedEndpoint::getEndpoint)
                .filter(endpoint -> endpoint.getMethod() == HandlerType.GET).map(Endpoint::getPath)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(served).as("the GET routes served").isEqualTo(documented);

        Map<String, String> parameters = Map.of("repository", repository, "id", first("Statement").getId(),
                "commandId", recordedCommand());
        Set<String> reads = new TreeSet<>(documented);
        reads.removeAll(NOT_READS);
        assertThat(reads).isNotEmpty();
        for (String route : reads) {
            double before = allReadGrants(route);
            String path = PATH_PARAMETER.matcher(route).replaceAll(parameter -> URLEncoder.encode(
                    parameters.get(parameter.group(1)), StandardCharsets.UTF_8));
            HttpResponse<byte[]> response = get(path);
            assertThat(response.statusCode()).as("%s: %s", path, new String(response.body(), StandardCharsets.UTF_8))
                    .isEqualTo(200);
            assertThat(allReadGrants(route)).as("grants applied on %s", route).isGreaterThan(before);
        }
    }

    @Test
    void childrenFromEitherStoreAreThoseTheGrantLetsTheCallerRead() throws Exception {
        String account = first("Account").getId();
        int children = (int) generated.stream().filter(d -> account.equals(d.getParentId())).count();
        String route = "/api/v1/{repository}/documents/{id}/children";
        String listing = documents() + "/" + account + "/children?limit=50";

        // From Elasticsearch: the grant filters the children's search.
        double searches = readGrants(route).getOrDefault("search", 0.0);
        assertThat(json(get(listing)).path("children").size()).isEqualTo(children);
        assertThat(readGrants(route).getOrDefault("search", 0.0)).isGreaterThan(searches);

        // From MongoDB: the grant checks the parent, restricts the listing's query, then checks every child.
        try (LocalApi fromMongoDb = new LocalApi(options("--children-from", "mongodb"))) {
            String saved = base;
            String savedManagement = management;
            try {
                base = fromMongoDb.base;
                management = fromMongoDb.management;
                assertThat(json(get(listing)).path("children").size()).isEqualTo(children);
                assertThat(readGrants(route)).isEqualTo(Map.of("document", children + 1.0, "store", 1.0));
            } finally {
                base = saved;
                management = savedManagement;
            }
        }
    }

    /** The grants applied on a route template, by what they applied to, as the API at {@link #base} counts them. */
    private static Map<String, Double> readGrants(String route) throws Exception {
        Map<String, Double> grants = new TreeMap<>();
        metrics().lines().map(READ_GRANTS::matcher)
                .filter(line -> line.matches() && line.group(1).contains("route=\"" + route + "\""))
                .forEach(line -> grants.put(line.group(1).replaceFirst(".*applied=\"(\\w+)\".*", "$1"),
                        Double.parseDouble(line.group(2))));
        return grants;
    }

    private static double allReadGrants(String route) throws Exception {
        return readGrants(route).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** A bulk command, recorded as the API records one it accepts (no job is run for it): its status can be read. */
    private static String recordedCommand() {
        String commandId = "bulk-read-seam-" + run;
        new CommandStore(backends.mongo.shared()).createIfAbsent(commandId, BulkUpdateOptions.Action.delete.name(),
                repository, new Document());
        return commandId;
    }

    // ---- writes

    @Test
    void writesNeedAnAuthenticatedCallerCommandsAnAdministrator() throws Exception {
        String body = "{\"parentId\":\"" + writableAccount() + "\",\"type\":\"Note\",\"name\":\"unauthorized\"}";
        HttpResponse<byte[]> none = anonymous("POST", documents());
        assertError(none, 401, "Authorization");
        assertThat(none.headers().firstValue("WWW-Authenticate")).isPresent();
        assertError(write("POST", documents(), body, "Authorization", "Bearer wrong"), 401, "Authorization");
        assertError(anonymous("DELETE", documents() + "/" + first("Statement").getId()), 401, "Authorization");

        String staff = "Bearer " + Tokens.user(Tokens.staffOf(writableAccountEvent()));
        HttpResponse<byte[]> created = write("POST", documents(), "{\"parentId\":\"" + writableAccount()
                + "\",\"type\":\"Note\",\"name\":\"by-staff-" + run + "\"}", "Authorization", staff);
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(202);
        assertError(write("POST", "/api/v1/" + repository + "/reindex", null, "Authorization", staff), 403, null);
        assertError(write("POST", "/api/v1/" + repository + "/bulk", "{\"action\": \"delete\", \"query\": {\"type\": "
                + "\"Note\"}}", "Authorization", staff), 403, null);
        assertError(write("POST", "/api/v1/bulk/" + recordedCommand() + "/abort", null, "Authorization", staff), 403, null);
    }

    @Test
    void anAdministratorThrottlesAStepWhileOthersMayNot() throws Exception {
        String staff = "Bearer " + Tokens.user(Tokens.staffOf(writableAccountEvent()));
        String limit = "{\"target\": \"index\", \"setting\": \"250\"}";
        assertError(write("PUT", "/api/v1/admin/throttle", limit, "Authorization", staff), 403, null);
        assertError(get("/api/v1/admin/throttle", "Authorization", staff), 403, null);
        assertError(write("PUT", "/api/v1/admin/throttle", "{\"target\": \"index\", \"setting\": \"fast\"}", auth()),
                400, "setting");
        try {
            HttpResponse<byte[]> limited = write("PUT", "/api/v1/admin/throttle", limit, auth());
            assertThat(limited.statusCode()).as(new String(limited.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            assertThat(json(limited).path("docsPerSecond").asDouble()).isEqualTo(250);
            write("PUT", "/api/v1/admin/throttle", "{\"target\": \"index\", \"setting\": \"pause\"}", auth());

            JsonNode index = null;
            for (JsonNode throttle : json(get("/api/v1/admin/throttle", auth())).path("throttles")) {
                index = throttle.path("target").asText().equals("index") ? throttle : index;
            }
            assertThat(index).as("the index step's throttle listed").isNotNull();
            assertThat(index.path("docsPerSecond").asDouble()).as("a pause keeps the limit").isEqualTo(250);
            assertThat(index.path("paused").asBoolean()).isTrue();
            assertThat(index.path("changedBy").asText()).isNotBlank();
        } finally {
            write("PUT", "/api/v1/admin/throttle", "{\"target\": \"index\", \"setting\": \"off\"}", auth());
            write("PUT", "/api/v1/admin/throttle", "{\"target\": \"index\", \"setting\": \"resume\"}", auth());
        }
    }

    @Test
    void invalidPayloadsAreRefusedNamingTheField() throws Exception {
        String account = writableAccount();
        assertError(write("POST", documents(), "{not json", auth()), 400, "body");
        assertError(write("POST", documents(), "[1,2]", auth()), 400, "body");
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"Note\",\"name\":\"a\",\"colour\":\"red\"}", auth()), 400, "colour");
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"Note\",\"name\":42}", auth()), 400, "name");
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"Note\"}", auth()), 400, "name");
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"Note\",\"name\":\"a/b\"}", auth()), 400, "name");
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"note\",\"name\":\"a\"}", auth()), 400, "type");
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"Note\",\"name\":\"a\",\"properties\":{\"x\":{\"y\":1}}}", auth()), 400, "properties.x");
        assertError(write("POST", documents(), "{\"parentId\":\"nobody\",\"type\":\"Note\",\"name\":\"a\"}", auth()), 400, "parentId");
        assertError(write("POST", documents() + "?wait=maybe", "{}", auth()), 400, "wait");
        String taken = generated.stream().filter(d -> account.equals(d.getParentId())).findFirst().orElseThrow().getName();
        assertError(write("POST", documents(), "{\"parentId\":\"" + account + "\",\"type\":\"Note\",\"name\":\"" + taken + "\"}", auth()), 409, "name");
        assertError(write("DELETE", documents() + "/" + account, null, auth()), 409, RecursiveDelete.RECURSIVE);
        assertThat(json(write("DELETE", documents() + "/" + account, null, auth())).path("message").asText())
                .contains("?recursive=true");
        assertError(write("PUT", documents() + "/" + first("Statement").getId(), "{\"parentId\":\"elsewhere\"}", auth()), 400, "parentId");
        assertError(write("PUT", documents() + "/no-such-document", "{\"title\":\"x\"}", auth()), 404, null);
    }

    @Test
    void eventSourcedWritesAreAppliedByThePipeline() throws Exception {
        String account = writableAccount();
        String word = "zebra" + run;
        HttpResponse<byte[]> created = write("POST", documents() + "?wait=true", "{\"parentId\":\"" + account
                + "\",\"type\":\"Note\",\"name\":\"note-" + run + "\",\"title\":\"A note about " + word
                + "\",\"properties\":{\"pages\":3,\"urgent\":true,\"score\":0.5,\"remark\":null}}", auth());
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        String id = json(created).path("id").asText();
        String etag = created.headers().firstValue("ETag").orElseThrow();
        assertThat(created.headers().firstValue("Location")).contains(documents() + "/" + id);

        JsonNode stored = json(get(documents() + "/" + id));
        assertThat(stored.path("title").asText()).isEqualTo("A note about " + word);
        assertThat(stored.path("properties").path("pages").asLong()).isEqualTo(3);
        assertThat(stored.path("properties").path("urgent").asBoolean()).isTrue();
        assertThat(stored.path("ancestorIds").size()).isEqualTo(4);
        awaitValue("note searchable", unchecked(() -> search("repository=" + repository + "&q=" + word)
                .path("total").path("value").asLong()), 1L, Duration.ofSeconds(60));

        assertError(write("PUT", documents() + "/" + id, "{\"title\":\"stale\"}", auth("If-Match", "\"1\"")), 412, "If-Match");
        HttpResponse<byte[]> updated = write("PUT", documents() + "/" + id + "?wait=true", "{\"title\":\"Updated " + word + "\"}",
                auth("If-Match", etag));
        assertThat(updated.statusCode()).as(new String(updated.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        assertThat(json(updated).path("title").asText()).isEqualTo("Updated " + word);
        assertThat(json(updated).path("properties").path("pages").asLong()).as("kept").isEqualTo(3);
        assertThat(updated.headers().firstValue("ETag")).isNotEqualTo(Optional.of(etag));

        HttpResponse<byte[]> deleted = write("DELETE", documents() + "/" + id + "?wait=true", null,
                auth("If-Match", updated.headers().firstValue("ETag").orElseThrow()));
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertError(get(documents() + "/" + id), 404, null);
        awaitValue("note gone from the index", unchecked(() -> search("repository=" + repository + "&q=" + word)
                .path("total").path("value").asLong()), 0L, Duration.ofSeconds(60));
    }

    @Test
    void aFolderIsDeletedWithItsDescendantsOnlyWhenTheDeleteIsRecursive() throws Exception {
        String folder = created("{\"parentId\":\"" + writableAccount() + "\",\"type\":\"Folder\",\"name\":\"folder-" + run + "\"}");
        String subfolder = created("{\"parentId\":\"" + folder + "\",\"type\":\"Folder\",\"name\":\"sub\"}");
        String note = created("{\"parentId\":\"" + subfolder + "\",\"type\":\"Note\",\"name\":\"deep\"}");
        String sibling = created("{\"parentId\":\"" + folder + "\",\"type\":\"Note\",\"name\":\"shallow\"}");
        // The API lists children from the index (--children-from elasticsearch), which a delete asks whether there are any.
        awaitValue("the folder's children indexed", unchecked(() -> (long) json(get(documents() + "/" + folder + "/children"))
                .path("children").size()), 2L, Duration.ofSeconds(60));

        assertError(write("DELETE", documents() + "/" + folder + "?wait=true", null, auth()), 409, RecursiveDelete.RECURSIVE);
        for (String id : List.of(folder, subfolder, note, sibling)) {
            assertThat(get(documents() + "/" + id).statusCode()).as("%s kept by a delete that is not recursive", id).isEqualTo(200);
        }
        assertError(write("DELETE", documents() + "/" + folder + "?recursive=maybe", null, auth()), 400, RecursiveDelete.RECURSIVE);

        HttpResponse<byte[]> deleted = write("DELETE", documents() + "/" + folder + "?recursive=true&wait=true", null, auth());
        assertThat(deleted.statusCode()).as(new String(deleted.body(), StandardCharsets.UTF_8)).isEqualTo(204);
        for (String id : List.of(folder, subfolder, note, sibling)) {
            assertError(get(documents() + "/" + id), 404, null);
        }
    }

    /** A document created through the API and visible in MongoDB; its id. */
    private static String created(String json) throws Exception {
        HttpResponse<byte[]> created = write("POST", documents() + "?wait=true", json, auth());
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        return json(created).path("id").asText();
    }

    @Test
    void asyncWriteIsAcceptedThenVisible() throws Exception {
        HttpResponse<byte[]> accepted = write("POST", documents(), "{\"parentId\":\"" + writableAccount()
                + "\",\"type\":\"Note\",\"name\":\"async-" + run + "\"}", auth());
        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(json(accepted).path("status").asText()).isEqualTo("accepted");
        String id = json(accepted).path("id").asText();
        awaitValue("async note imported", unchecked(() -> (long) get(documents() + "/" + id).statusCode()), 200L,
                Duration.ofSeconds(60));
    }

    @Test
    void uploadedFileIsStoredByDigestAndServedBack() throws Exception {
        byte[] file = ("scanned letter " + run + "\n").repeat(100).getBytes(StandardCharsets.UTF_8);
        String boundary = "b" + run;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"document\"\r\n\r\n{\"parentId\":\""
                + writableAccount() + "\",\"type\":\"Scan\",\"name\":\"scan-" + run + ".txt\"}\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"scan.txt\"\r\nContent-Type: text/html\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.write(file);
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<byte[]> created = send(HttpRequest.newBuilder(URI.create(base + documents() + "?wait=true"))
                .header("Authorization", "Bearer " + Tokens.service()).header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        JsonNode document = json(created);
        assertThat(document.path("blob").path("length").asLong()).isEqualTo(file.length);
        HttpResponse<byte[]> blob = get(document.path("blob").path("href").asText());
        assertThat(blob.statusCode()).isEqualTo(200);
        assertThat(blob.body()).isEqualTo(file);
        assertThat(document.path("blob").path("mimeType").asText()).as("detected, not the claimed text/html").isEqualTo("text/plain");
        assertThat(blob.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
        assertThat(blob.headers().firstValue("Content-Disposition").orElseThrow()).startsWith("attachment;");
        assertThat(blob.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    }

    // ---- failures of the backends

    @Test
    void unreachableBackendsGive503NotAStackTrace() throws Exception {
        try (LocalApi down = new LocalApi(options("--mongodb-uri", "mongodb://127.0.0.1:1", "--elasticsearch-url", "http://127.0.0.1:1",
                "--bootstrap-servers", "127.0.0.1:1", "--backend-timeout", "PT1S"))) {
            String saved = base;
            try {
                base = down.base;
                assertError(get(documents() + "/" + writableAccount()), 503, null);
                assertThat(json(get(documents() + "/x")).path("message").asText()).contains("mongodb");
                assertError(get("/api/v1/search?q=x"), 503, null);
                assertThat(json(get("/api/v1/search?q=x")).path("message").asText()).as("its engine never answered")
                        .contains("search engine");
                assertThat(get("/health/ready").statusCode()).isEqualTo(503);
                HttpResponse<byte[]> ready = HTTP.send(HttpRequest.newBuilder(URI.create(down.management
                        + "/health/ready")).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(json(ready).path("backends").path("mongodb").asText()).startsWith("DOWN");
                assertThat(json(ready).path("backends").path("kafka").asText()).startsWith("DOWN");
            } finally {
                base = saved;
            }
        }

        try (LocalApi down = new LocalApi(options("--bootstrap-servers", "127.0.0.1:1", "--backend-timeout", "PT1S"))) {
            String saved = base;
            try {
                base = down.base;
                HttpResponse<byte[]> refused = write("POST", documents(), "{\"parentId\":\"" + writableAccount()
                        + "\",\"type\":\"Note\",\"name\":\"never-" + run + "\"}", auth());
                assertError(refused, 503, null);
                assertThat(json(refused).path("message").asText()).contains("kafka");
            } finally {
                base = saved;
            }
        }
    }

    // ---- commands

    @Test
    void aReindexThroughTheApiMovesTheAliasWhileSearchesKeepAnswering() throws Exception {
        long statements = search("repository=" + repository + "&type=Statement&limit=1").path("total").path("value").asLong();
        HttpResponse<byte[]> accepted = write("POST", "/api/v1/" + repository + "/reindex", "{\"rangeSize\": 20}", auth());
        assertThat(accepted.statusCode()).as(new String(accepted.body(), StandardCharsets.UTF_8)).isEqualTo(202);
        String commandId = json(accepted).path("commandId").asText();
        assertThat(accepted.headers().firstValue("Location")).contains("/api/v1/bulk/" + commandId);
        assertError(write("POST", "/api/v1/" + repository + "/reindex", null, auth()), 409, null);

        JsonNode status = json(get("/api/v1/bulk/" + commandId));
        while (List.of("SCHEDULED", "RUNNING").contains(status.path("state").asText())) {
            assertThat(search("repository=" + repository + "&type=Statement&limit=1").path("total").path("value").asLong())
                    .as("statements found during the reindex").isEqualTo(statements);
            Thread.sleep(200);
            status = json(get("/api/v1/bulk/" + commandId));
        }
        assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
        for (String field : List.of("commandId", "action", "repository", "total", "processed", "skipped", "errors",
                "submitted", "started", "completed", "docsPerSecond", "index")) {
            assertThat(status.has(field)).as(field + " in " + status).isTrue();
        }
        assertThat(status.path("ranges").path("processed").asLong()).isEqualTo(status.path("ranges").path("total").asLong())
                .isGreaterThan(1);
        assertThat(status.path("processed").asLong()).isGreaterThanOrEqualTo(generated.size());
        assertThat(search("repository=" + repository + "&type=Statement&limit=1").path("total").path("value").asLong())
                .as("statements found after the reindex").isEqualTo(statements);
    }

    @Test
    void aCommandItCannotRunIsRefusedNamingWhy() throws Exception {
        String bulk = "/api/v1/" + repository + "/bulk";
        assertError(write("POST", bulk, "{\"action\": \"setProperties\", \"query\": {\"colour\": \"red\"}, "
                + "\"params\": {\"properties\": {\"reviewed\": \"yes\"}}}", auth()), 400, "query.colour");
        assertError(write("POST", bulk, "{\"action\": \"setProperties\", \"query\": {\"type\": \"Statement\"}, "
                + "\"params\": {\"properties\": {\"a.b\": 1}}}", auth()), 400, "params.properties.a.b");
        assertError(write("POST", bulk, "{\"action\": \"setProperties\", \"query\": {\"state\": \"Texas\"}, "
                + "\"params\": {\"properties\": {\"reviewed\": \"yes\"}}}", auth()), 400, "query.state");
        assertError(write("POST", bulk, "{\"action\": \"purge\"}", auth()), 400, "action");
        assertError(write("POST", bulk, "{\"action\": \"delete\"}", auth()), 400, "all");
        assertError(write("POST", bulk, "{\"action\": \"delete\", \"query\": {}}", auth()), 400, "all");
        assertError(write("POST", bulk, "{\"action\": \"delete\", \"all\": \"yes\"}", auth()), 400, "all");
        assertError(write("POST", bulk, "{\"action\": \"delete\", \"all\": true, \"query\": {\"type\": \"Note\"}}", auth()), 400, "all");
        assertError(write("POST", bulk, "{\"action\": \"delete\", \"filter\": {}}", auth()), 400, "filter");
        assertError(anonymous("POST", bulk), 401, "Authorization");
        assertError(get("/api/v1/bulk/no-such-command"), 404, null);
        assertError(write("POST", "/api/v1/bulk/no-such-command/abort", null, auth()), 404, null);
        assertError(write("POST", "/api/v1/nothing" + run + "/reindex", null, auth()), 404, "repository");
    }

    @Test
    void waitGivesUpWith504WhenNothingAppliesTheWrite() throws Exception {
        String orphan = "it." + run + ".unconsumed";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, LocalPipeline.KAFKA))) {
            admin.createTopics(List.of(new NewTopic(orphan, 1, (short) 1))).all().get();
        }
        try (LocalApi lonely = new LocalApi(options("--documents-topic", orphan, "--wait-timeout", "PT1S"))) {
            String saved = base;
            try {
                base = lonely.base;
                HttpResponse<byte[]> timedOut = write("POST", documents() + "?wait=true", "{\"parentId\":\""
                        + writableAccount() + "\",\"type\":\"Note\",\"name\":\"lost-" + run + "\"}", auth());
                assertThat(timedOut.statusCode()).isEqualTo(504);
                ObjectNode body = (ObjectNode) json(timedOut);
                assertThat(body.path("status").asText()).isEqualTo("accepted");
                assertThat(body.path("id").asText()).isNotBlank();
            } finally {
                base = saved;
            }
        }
    }
}
