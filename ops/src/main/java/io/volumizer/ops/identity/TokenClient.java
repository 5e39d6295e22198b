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
 * grant on a public client) or automation's (client credentials). The demo's password and the service client's
 * secret come from the environment ({@link DemoRealm#PASSWORD_VARIABLE}, {@link DemoRealm#CLIENT_SECRET_VARIABLE}),
 * never from a command line.
 */
public final class TokenClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final URI issuer;

    public TokenClient(URI issuer) {
        this.issuer = issuer;
    }

    /** Keycloak's token endpoint of a realm's issuer. */
    public static URI tokenEndpoint(URI issuer) {
        return URI.create(issuer + "/protocol/openid-connect/token");
    }

    /** Keycloak's JSON Web Key Set of a realm's issuer: the keys its tokens are signed with. */
    public static URI jwksEndpoint(URI issuer) {
        return URI.create(issuer + "/protocol/openid-connect/certs");
    }

    /** A demo user's token, through the public client {@code clientId}, with the demo's password. */
    public String user(String user, String clientId) throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "password");
        form.put("client_id", clientId);
        form.put("username", user);
        form.put("password", environment(DemoRealm.PASSWORD_VARIABLE));
        return token(form, "user " + user);
    }

    /** A demo user's token, through the command-line client. */
    public String user(String user) throws IOException, InterruptedException {
        return user(user, DemoRealm.CLI_CLIENT);
    }

    /** The service client's token (its service account is an administrator), with the secret of the environment. */
    public String service() throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        form.put("client_id", DemoRealm.SERVICE_CLIENT);
        form.put("client_secret", environment(DemoRealm.CLIENT_SECRET_VARIABLE));
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

    private static String environment(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("$" + variable + " is not set (conf/volumizer.conf sets it for what bin/volumizer starts)");
        }
        return value;
    }
}
