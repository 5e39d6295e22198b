package io.volumizer.ops.client;

import java.io.IOException;
import java.util.List;

import io.volumizer.ops.identity.IssuerOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --api} and {@code --oidc-issuer} (a picocli mixin of the load test's session and runner, and of the security
 * benchmark): the API
 * the users talk to, and the identity provider the load test's users log in at (the demo's password from the
 * environment) and the session's own requests take the service token from (its secret from the environment, never
 * an argument).
 */
public final class ApiTarget {

    @Option(names = "--api", defaultValue = "${sys:volumizer.api.url}", description = "API base URL (default: the local API's, from the "
            + "endpoints file of bin/volumizer up).")
    public String api;

    @Mixin public IssuerOptions issuer = new IssuerOptions();

    /** The service client's access token. */
    public String token() throws IOException, InterruptedException {
        return issuer.client().service();
    }

    /** These options as a runner is given them. */
    public List<String> arguments() {
        return List.of("--api", api, IssuerOptions.ISSUER, issuer.issuer.toString());
    }
}
