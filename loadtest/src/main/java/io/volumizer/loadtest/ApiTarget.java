package io.volumizer.loadtest;

import java.io.IOException;
import java.net.URI;
import java.util.List;

import io.volumizer.ops.identity.TokenClient;
import picocli.CommandLine.Option;

/**
 * {@code --api} and {@code --oidc-issuer} (a picocli mixin of the load test's session and of its runner): the API
 * the users talk to, and the identity provider the load test's users log in at (the demo's password from the
 * environment) and the session's own requests take the service token from (its secret from the environment, never
 * an argument).
 */
public final class ApiTarget {

    @Option(names = "--api", defaultValue = "http://127.0.0.1:8090", description = "API base URL (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--oidc-issuer", required = true, description = "The realm the users and the service log in at "
            + "(bin/volumizer passes conf/volumizer.conf's OIDC_ISSUER).")
    URI issuer;

    /** The service client's access token. */
    String token() throws IOException, InterruptedException {
        return new TokenClient(issuer).service();
    }

    /** These options as a runner is given them. */
    List<String> arguments() {
        return List.of("--api", api, "--oidc-issuer", issuer.toString());
    }
}
