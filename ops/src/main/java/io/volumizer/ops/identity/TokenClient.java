package io.volumizer.ops.identity;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Access tokens from the identity provider's token endpoint (Keycloak's path under its issuer): a person's (password
 * grant on a public client) or automation's (client credentials). A demo user's password and the service client's
 * secret come from {@link LocalSecrets} (the environment's, else this install's own in the state folder), never from a
 * command line.
 */
public final class TokenClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final URI issuer;
    private LocalSecrets secrets;

    /** A client of the realm of {@code issuer}, with this process's secrets ({@link LocalSecrets#local()}). */
    public TokenClient(URI issuer) {
        this(issuer, null);
    }

    public TokenClient(URI issuer, LocalSecrets secrets) {
        this.issuer = issuer;
        this.secrets = secrets;
    }

    /** Read when first needed: a client made where there is no state folder fails only if it logs in. */
    private synchronized LocalSecrets secrets() {
        if (secrets == null) {
            secrets = LocalSecrets.local();
        }
        return secrets;
    }

    /** Keycloak's token endpoint of a realm's issuer. */
    public static URI tokenEndpoint(URI issuer) {
        return URI.create(issuer + "/protocol/openid-connect/token");
    }

    /** Keycloak's JSON Web Key Set of a realm's issuer: the keys its tokens are signed with. */
    public static URI jwksEndpoint(URI issuer) {
        return URI.create(issuer + "/protocol/openid-connect/certs");
    }

    /** A demo user's token, through the public client {@code clientId}, with that user's password. */
    public String user(String user, String clientId) throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "password");
        form.put("client_id", clientId);
        form.put("username", user);
        form.put("password", secrets().password(user));
        return token(form, "user " + user);
    }

    /** A demo user's token, through the command-line client. */
    public String user(String user) throws IOException, InterruptedException {
        return user(user, DemoRealm.CLI_CLIENT);
    }

    /** The service client's token (its service account is an administrator). */
    public String service() throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        form.put("client_id", DemoRealm.SERVICE_CLIENT);
        form.put("client_secret", secrets().clientSecret());
        return token(form, "client " + DemoRealm.SERVICE_CLIENT);
    }

    private String token(Map<String, String> form, String who) throws IOException, InterruptedException {
        String body = form.entrySet().stream().map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(tokenEndpoint(issuer))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode answer = JSON.readTree(response.body());
        if (response.statusCode() != 200 || !answer.hasNonNull("access_token")) {
            throw new IOException("no token for " + who + " from " + issuer + ": HTTP " + response.statusCode() + " "
                    + answer.path("error_description").asText(answer.path("error").asText(response.body())));
        }
        return answer.get("access_token").asText();
    }
}
