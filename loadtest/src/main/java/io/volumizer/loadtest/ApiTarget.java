package io.volumizer.loadtest;

import java.util.List;

import picocli.CommandLine.Option;

/**
 * {@code --api} and {@code --token} (a picocli mixin of the load test's session and of its runner): the API the
 * users talk to, and the bearer token their writes carry.
 */
public final class ApiTarget {

    @Option(names = "--api", defaultValue = "http://127.0.0.1:8090", description = "API base URL (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--token", defaultValue = "${env:VOLUMIZER_API_TOKEN}", description = "Bearer token for writes (default: $VOLUMIZER_API_TOKEN).")
    String token;

    /** The token, empty where none is given. */
    String token() {
        return token == null ? "" : token;
    }

    /** These options as a runner is given them. */
    List<String> arguments() {
        return List.of("--api", api, "--token", token());
    }
}
