package io.volumizer.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jwt.SignedJWT;

import io.volumizer.api.ApiServer;
import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * The API's authentication against the real identity provider ({@code bin/volumizer up} starts Keycloak with the
 * realms of conf/services/keycloak): every route of the OpenAPI document but /health/live refuses a request without
 * a token; tokens of another issuer, for another audience, or expired are refused; a demo user's token reads; a
 * client that failed too often is refused before its token is read, counted by the address its trusted proxy names.
 */
class AuthenticationIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{(\\w+)}");
    private static final String LIVENESS = "/health/live";

    private static LocalPipeline pipeline;
    private static LocalApi api;
    private static String base;

    @BeforeAll
    static void pipelineAndApi() throws Exception {
        // The default seed's first customer: its user is in the realm.
        pipeline = new LocalPipeline("auth", GeneratorSettings.DEFAULT_SEED, 1, 2);
        // No clock skew: a token is refused as soon as it expires. No penalty: this test fails on purpose, often.
        api = new LocalApi(pipeline.apiOptions("--oidc-clock-skew", "PT0S", "--auth-penalty-after", "1000"));
        base = api.base;
        pipeline.awaitIndexed(base);
    }

    @AfterAll
    static void stop() throws Exception {
        if (api != null) {
            api.close();
        }
        if (pipeline != null) {
            pipeline.close();
        }
    }

    private static HttpResponse<String> send(String method, String url, String token) throws Exception {
        return HTTP.send(request(method, url, token).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String method, String url, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    /** A GET of {@code url} that the proxy at 127.0.0.1 forwards for {@code client}. */
    private static HttpResponse<String> forwarded(String url, String token, String client) throws Exception {
        return HTTP.send(request("GET", url, token).header(Authentication.FORWARDED_FOR, client).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static DocumentEvent statement() {
        return pipeline.generated.stream().filter(d -> "Statement".equals(d.getType())).findFirst().orElseThrow();
    }

    private static String document() {
        return "/api/v1/" + pipeline.repository + "/documents/" + statement().getId();
    }

    @Test
    void everyRouteOfTheOpenApiDocumentButLivenessNeedsAToken() throws Exception {
        JsonNode paths = JSON.readTree(send("GET", base + "/api/v1/openapi.json", Tokens.service()).body()).path("paths");
        Map<String, String> parameters = Map.of("repository", pipeline.repository, "id", pipeline.generated.get(0).getId(),
                "commandId", "no-such-command");
        List<String> checked = new ArrayList<>();
        for (var path : (Iterable<Map.Entry<String, JsonNode>>) paths::fields) {
            String url = base + PATH_PARAMETER.matcher(path.getKey()).replaceAll(parameter -> URLEncoder.encode(
                    parameters.get(parameter.group(1)), StandardCharsets.UTF_8));
            for (var operation : (Iterable<String>) path.getValue()::fieldNames) {
                String method = operation.toUpperCase();
                HttpResponse<String> anonymous = send(method, url, null);
                if (path.getKey().equals(LIVENESS)) {
                    assertThat(anonymous.statusCode()).as("%s %s", method, path.getKey()).isEqualTo(200);
                    continue;
                }
                assertThat(anonymous.statusCode()).as("%s %s: %s", method, path.getKey(), anonymous.body()).isEqualTo(401);
                assertThat(anonymous.headers().firstValue("WWW-Authenticate")).as("%s %s", method, path.getKey())
                        .contains("Bearer realm=\"volumizer\"");
                assertThat(JSON.readTree(anonymous.body()).path("field").asText()).isEqualTo("Authorization");
                checked.add(method + " " + path.getKey());
            }
        }
        assertThat(checked).as("routes checked").hasSizeGreaterThanOrEqualTo(20).contains("GET /health/ready",
                "GET /api/v1/openapi.json", "POST /api/v1/{repository}/bulk", "GET /api/v1/search");
    }

    @Test
    void aPresentedTokenThatIsNotValidIsAnInvalidTokenChallenge() throws Exception {
        HttpResponse<String> refused = send("GET", base + document(), "guess");

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("WWW-Authenticate").orElseThrow())
                .startsWith("Bearer realm=\"volumizer\", error=\"invalid_token\"");
    }

    @Test
    void aTokenOfAnotherIssuerIsRefused() throws Exception {
        URI otherIssuer = URI.create(Tokens.ISSUER.toString().replaceAll("/realms/[^/]+$", "/realms/" + DemoRealm.OTHER_REALM));
        String other = new TokenClient(otherIssuer).user(DemoRealm.ADMIN);

        assertInvalid(send("GET", base + document(), other));
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        String noAudience = Tokens.CLIENT.user("staff-ca-1", DemoRealm.NO_AUDIENCE_CLIENT);

        assertInvalid(send("GET", base + document(), noAudience));
    }

    @Test
    void anExpiredTokenIsRefused() throws Exception {
        String shortLived = Tokens.CLIENT.user("staff-ca-1", DemoRealm.SHORT_LIVED_CLIENT);
        Instant expiry = SignedJWT.parse(shortLived).getJWTClaimsSet().getExpirationTime().toInstant();
        // Waits until the token has expired (the API runs without clock skew here): no time is asserted.
        while (!Instant.now().isAfter(expiry.plusSeconds(1))) {
            Thread.sleep(200);
        }

        assertInvalid(send("GET", base + document(), shortLived));
    }

    @Test
    void aDemoUsersTokenReadsAndFailuresAreCountedOnTheManagementPort() throws Exception {
        HttpResponse<String> read = send("GET", base + document(), Tokens.user(Tokens.staffOf(statement())));
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(send("GET", base + document(), Tokens.user(DemoRealm.customerUsers().get(0))).statusCode()).isEqualTo(200);

        assertThat(send("GET", base + document(), null).statusCode()).isEqualTo(401);
        HttpResponse<String> metrics = send("GET", api.management + ApiMetrics.PATH, null);
        assertThat(metrics.statusCode()).as("the management port needs no token").isEqualTo(200);
        assertThat(counter(metrics.body(), MetricNames.API_AUTHENTICATION_FAILURES)).isPositive();
        assertThat(send("GET", base + ApiMetrics.PATH, Tokens.service()).statusCode())
                .as("metrics are not on the API's port").isEqualTo(404);
        assertThat(send("GET", api.management + "/health/ready", null).statusCode()).as("the probe's readiness").isEqualTo(200);
    }

    /** The jar the operator fetches for a command's FlinkSessionJob: on the management port, as the API was given it. */
    @Test
    void theManagementPortServesTheJobsJarTheApiRunsCommandsFrom() throws Exception {
        HttpResponse<byte[]> jar = HTTP.send(request("GET", api.management + ApiServer.JOBS_JAR_PATH, null).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(jar.statusCode()).isEqualTo(200);
        assertThat(jar.body()).isEqualTo(Files.readAllBytes(pipeline.jobsJar()));
        assertThat(send("GET", base + ApiServer.JOBS_JAR_PATH, Tokens.service()).statusCode())
                .as("the jar is not on the API's port").isEqualTo(404);
    }

    @Test
    void pastItsFailuresAClientBehindATrustedProxyFailsWith429ButItsValidTokenIsServed() throws Exception {
        try (LocalApi penalising = new LocalApi(pipeline.apiOptions("--auth-penalty-after", "2", "--auth-penalty", "PT10M",
                "--auth-max-penalty", "PT10M", "--trusted-proxies", "127.0.0.0/8"))) {
            String url = penalising.base + document();
            String token = Tokens.user(Tokens.staffOf(statement()));
            assertInvalid(forwarded(url, "guess", "192.0.2.7"));

            HttpResponse<String> penalised = forwarded(url, "another-guess", "192.0.2.7");
            assertThat(penalised.statusCode()).as(penalised.body()).isEqualTo(429);
            assertThat(Long.parseLong(penalised.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 600L);
            assertThat(forwarded(url, "a-third-guess", "198.51.100.1, 192.0.2.7").statusCode())
                    .as("an entry the client wrote itself changes nothing").isEqualTo(429);
            assertThat(forwarded(url, token, "192.0.2.7").statusCode()).as("a valid token from the same address")
                    .isEqualTo(200);
            assertThat(forwarded(url, token, "192.0.2.8").statusCode()).as("another client of the proxy").isEqualTo(200);
            assertThat(send("GET", url, token).statusCode()).as("the proxy's own request").isEqualTo(200);

            String metrics = send("GET", penalising.management + ApiMetrics.PATH, null).body();
            assertThat(counter(metrics, MetricNames.API_AUTHENTICATION_FAILURES)).isEqualTo(3);
            assertThat(counter(metrics, MetricNames.API_AUTHENTICATION_PENALTIES)).isEqualTo(2);
        }
    }

    /** A counter's value in a Prometheus scrape: it has no labels. */
    private static double counter(String scrape, String meter) {
        String name = meter.replace('.', '_') + "_total ";
        return scrape.lines().filter(line -> line.startsWith(name)).mapToDouble(line -> Double.parseDouble(
                line.substring(name.length()))).findFirst().orElseThrow(() -> new AssertionError(name + "not scraped"));
    }

    private static void assertInvalid(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_token\"");
    }
}
