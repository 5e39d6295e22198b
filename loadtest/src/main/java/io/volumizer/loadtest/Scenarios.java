package io.volumizer.loadtest;

import static io.gatling.javaapi.http.HttpDsl.ByteArrayBodyPart;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.http.HttpDsl.StringBodyPart;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.regex;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.Http;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.loadtest.LoadUsers.Kind;

/**
 * The user journeys the simulations combine. Request names are stable: the summary and the assertions refer to
 * them ("get document", "children", "search ...", "read", ...).
 */
public final class Scenarios {

    /** Read requests of a browsing user: what the navigation latency target is about. */
    public static final List<String> NAVIGATION_REQUESTS = List.of("get document", "children", "next children page",
            "ancestors", "get parent", "blob");
    public static final List<String> SEARCH_REQUESTS = List.of("search fulltext", "search filtered", "search by period",
            "search archive", "search next page");

    private static final byte[] UPLOAD = "Volumizer load test upload\n".repeat(200).getBytes(StandardCharsets.UTF_8);

    private Scenarios() {
    }

    /** Saves the page's "next" cursor, when there is one, for a following page request. */
    private static CheckBuilder.Final nextCursor() {
        return regex("\"next\":\"([^\"]+)\"").optional().saveAs("next");
    }

    /**
     * Fails an answer that holds a document the virtual user's user may not read, by the generator's layout
     * ({@link ReadableDocuments}); the failure names the documents and who may read them.
     */
    static CheckBuilder.Final readableBy(ReadableDocuments readable) {
        return bodyString().transformWithSession((body, session) ->
                String.join(", ", readable.forbidden(body, session.<String>getList("principals")))).is("");
    }

    /** Each virtual user's requests carry the token of the user its feeder gave it. */
    public static HttpProtocolBuilder protocol(LoadSettings settings) {
        // No client cache: every request reaches the server, which is what is measured.
        return http.baseUrl(settings.apiUrl()).acceptHeader("application/json").authorizationHeader("Bearer #{token}")
                .shareConnections().disableCaching();
    }

    /** Ramp to the rate, then hold it: an open model, users arrive whatever the latency. */
    public static OpenInjectionStep[] openModel(LoadSettings settings, double share) {
        double rate = settings.usersPerSecond() * share;
        return new OpenInjectionStep[] {
            rampUsersPerSec(Math.max(rate / 10, 0.1)).to(rate).during(settings.ramp()),
            constantUsersPerSec(rate).during(settings.duration())
        };
    }

    /**
     * A person browsing what it may read (a branch's staff a customer of its state, a customer its own folder): a
     * customer folder, its accounts, a page of statements and the next, one statement, its breadcrumb, parent and file.
     */
    public static ScenarioBuilder navigation(LoadSettings settings, LoadUsers users, long drawSeed) {
        String documents = settings.documents();
        ReadableDocuments readable = users.readable();
        return scenario("navigation").feed(Feeders.users(settings.generator(), users.users(), Feeders.NAVIGATING, drawSeed)).exec(
                refusable("get document", r -> r.get(documents + "/#{customerId}"), readable, 200),
                refusable("children", r -> r.get(documents + "/#{customerId}/children").queryParam("limit", 20), readable, 200),
                refusable("get document", r -> r.get(documents + "/#{accountId}"), readable, 200),
                refusable("children", r -> r.get(documents + "/#{accountId}/children").queryParam("limit", 20)
                        .queryParam("sort", "date").check(nextCursor()), readable, 200),
                doIf(session -> session.contains("next")).then(refusable("next children page", r -> r
                        .get(documents + "/#{accountId}/children").queryParam("limit", 20).queryParam("sort", "date")
                        .queryParam("cursor", "#{next}"), readable, 200)),
                refusable("get document", r -> r.get(documents + "/#{statementId}")
                        .check(jsonPath("$.parentId").optional().saveAs("parentId")), readable, 200),
                refusable("ancestors", r -> r.get(documents + "/#{statementId}/ancestors"), readable, 200),
                refusable("get parent", r -> r.get(documents + "/#{parentId}"), readable, 200),
                randomSwitch().on(percent(30.0).then(refusable("blob", r -> r.get(documents + "/#{statementId}/blob"), readable, 200))));
    }

    /**
     * Fulltext on names and places drawn from the generator, filtered, sorted, aggregated, as a branch's staff or a
     * customer; an auditor searches the archive (statements up to the archive's last period). Some users page on.
     */
    public static ScenarioBuilder search(LoadSettings settings, LoadUsers users, long drawSeed) {
        String repository = settings.generator().repository();
        ReadableDocuments readable = users.readable();
        GeneratorSettings generator = settings.generator();
        LocalDate archivedUntil = generator.lastPeriod().minusMonths(GeneratorSettings.ARCHIVE_AGE_MONTHS - 1L).atDay(1);
        return scenario("search").feed(Feeders.users(generator, users.users(), EnumSet.allOf(Kind.class), drawSeed)).exec(
                doIfOrElse(session -> Kind.AUDITOR.name().equals(session.getString("kind"))).then(
                        refusable("search archive", r -> r.get("/api/v1/search").queryParam("repository", repository)
                                .queryParam("q", "#{lastName}").queryParam("type", "Statement")
                                .queryParam("to", archivedUntil.toString()).queryParam("sort", "-date")
                                .queryParam("limit", 20).check(nextCursor()), readable, 200)).orElse(
                randomSwitch().on(
                        percent(40.0).then(refusable("search fulltext", r -> r.get("/api/v1/search")
                                .queryParam("repository", repository).queryParam("q", "#{lastName}")
                                .queryParam("aggs", "type,state").queryParam("limit", 20).check(nextCursor()), readable, 200)),
                        percent(40.0).then(refusable("search filtered", r -> r.get("/api/v1/search")
                                .queryParam("repository", repository).queryParam("q", "#{city}")
                                .queryParam("type", "Statement").queryParam("state", "#{stateCode}")
                                .queryParam("sort", "-date").queryParam("limit", 20).check(nextCursor()), readable, 200)),
                        percent(20.0).then(refusable("search by period", r -> r.get("/api/v1/search")
                                .queryParam("repository", repository).queryParam("q", "#{firstName} #{lastName}")
                                .queryParam("from", "2024-01-01").queryParam("to", "2025-12-31")
                                .queryParam("aggs", "month").queryParam("limit", 20), readable, 200)))),
                randomSwitch().on(percent(30.0).then(doIf(session -> session.contains("next")).then(
                        refusable("search next page", r -> r.get("/api/v1/search").queryParam("repository", repository)
                                .queryParam("q", "#{lastName}").queryParam("aggs", "type,state").queryParam("limit", 20)
                                .queryParam("cursor", "#{next}"), readable, 200, 400)))));
    }

    /**
     * A request the API may refuse under overload (503 with Retry-After): a refusal is an answer, not a failure.
     * Its response time is recorded apart ({@link Admissions}), and a refused user leaves, as a client that backs off
     * would; any other unexpected status fails the request, and so does an answer holding a document the user may
     * not read.
     */
    private static ChainBuilder refusable(String name, Function<Http, HttpRequestActionBuilder> request,
            ReadableDocuments readable, Integer... expected) {
        List<Integer> statuses = new ArrayList<>(List.of(expected));
        statuses.add(Admissions.REFUSED);
        return exec(request.apply(http(name)).check(status().in(statuses).saveAs("status"),
                responseTimeInMillis().saveAs("responseTime"), readableBy(readable)))
                .exec(session -> {
                    Admissions.record(name, session.getInt("status"), session.getLong("responseTime"));
                    return session;
                })
                .exitHereIf(session -> session.getInt("status") == Admissions.REFUSED);
    }

    /**
     * Create (with a file upload), read, update, delete, as a branch's staff in an account of its state: half the
     * users wait for each write to be visible in MongoDB, half write asynchronously and poll until the import job has
     * applied the create. The notes carry a file: a document without one is a folder, which only a folder's manager
     * deletes (with its descendants).
     */
    public static ScenarioBuilder crud(LoadSettings settings, LoadUsers users, long drawSeed) {
        String documents = settings.documents();
        ReadableDocuments readable = users.readable();
        return scenario("crud").feed(Feeders.users(settings.generator(), users.users(), Feeders.WRITING, drawSeed))
                .exec(randomSwitch().on(
                percent(50.0).then(exec(
                        http("create (wait, upload)").post(documents).queryParam("wait", true)
                                .bodyPart(StringBodyPart("document", "{\"parentId\":\"#{accountId}\",\"type\":\"Note\","
                                        + "\"name\":\"load-#{randomUuid()}\",\"title\":\"Load test note for #{lastName}\"}"))
                                .bodyPart(ByteArrayBodyPart("file", UPLOAD).fileName("note.txt").contentType("text/plain"))
                                .asMultipartForm()
                                .check(status().is(201), jsonPath("$.id").saveAs("id"), header("ETag").saveAs("etag")),
                        http("read").get(documents + "/#{id}").check(status().is(200), readableBy(readable)),
                        http("update (wait)").put(documents + "/#{id}").queryParam("wait", true)
                                .header("If-Match", "#{etag}").header("Content-Type", "application/json")
                                .body(StringBody("{\"title\":\"Updated note for #{lastName}\",\"properties\":{\"reviewed\":true}}"))
                                .check(status().is(200), header("ETag").saveAs("etag")),
                        http("read").get(documents + "/#{id}").check(status().is(200), readableBy(readable)),
                        http("delete (wait)").delete(documents + "/#{id}").queryParam("wait", true)
                                .header("If-Match", "#{etag}").check(status().is(204)))),
                percent(50.0).then(exec(
                        http("create (async)").post(documents)
                                .bodyPart(StringBodyPart("document", "{\"parentId\":\"#{accountId}\",\"type\":\"Note\","
                                        + "\"name\":\"load-#{randomUuid()}\"}"))
                                .bodyPart(ByteArrayBodyPart("file", UPLOAD).fileName("note.txt").contentType("text/plain"))
                                .asMultipartForm()
                                .check(status().is(202), jsonPath("$.id").saveAs("id")),
                        exec(session -> session.set("readStatus", 404).set("polls", 0)),
                        asLongAs(session -> session.getInt("readStatus") != 200 && session.getInt("polls") < 100).on(exec(
                                http("read until imported").get(documents + "/#{id}")
                                        .check(status().in(200, 404).saveAs("readStatus")),
                                exec(session -> session.set("polls", session.getInt("polls") + 1))).pause(Duration.ofMillis(50))),
                        http("read").get(documents + "/#{id}").check(status().is(200), readableBy(readable)),
                        http("update (async)").put(documents + "/#{id}")
                                .header("Content-Type", "application/json")
                                .body(StringBody("{\"title\":\"Updated asynchronously\"}")).check(status().is(202)),
                        http("delete (async)").delete(documents + "/#{id}").check(status().is(202))))));
    }

    public static PopulationBuilder open(ScenarioBuilder scenario, LoadSettings settings, double share) {
        return scenario.injectOpen(openModel(settings, share));
    }

    /** Few failed requests, and the 95th percentile of the named requests (all when none) under the threshold. */
    public static Assertion[] assertions(LoadSettings settings, List<String> latencyRequests) {
        Assertion errors = global().failedRequests().percent().lte(settings.maxErrorPercent());
        if (latencyRequests.isEmpty()) {
            return new Assertion[] {errors, global().responseTime().percentile(95.0).lt(settings.p95Millis())};
        }
        Assertion[] assertions = new Assertion[latencyRequests.size() + 1];
        assertions[0] = errors;
        for (int i = 0; i < latencyRequests.size(); i++) {
            assertions[i + 1] = details(latencyRequests.get(i)).responseTime().percentile(95.0).lt(settings.p95Millis());
        }
        return assertions;
    }
}
