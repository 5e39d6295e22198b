package io.volumizer.harness;

import java.io.IOException;

import io.volumizer.ops.services.LocalServices;
import picocli.CommandLine.Option;

/** Which local service is the store that a benchmark also measures on cores of its own (a picocli mixin). */
public final class StoreIsolationOptions {

    @Option(names = "--store-service", paramLabel = "SERVICE", description = "The local service (bin/volumizer up) that "
            + "is the store, e.g. mongodb: the measures are then also taken with it on cores of its own, and every other "
            + "running service on the rest (default: not measured).")
    String service;

    public boolean enabled() {
        return service != null;
    }

    /** Pins the store, and every other service that runs, to their cores until closed. */
    public StoreIsolation isolate(LocalServices services) throws IOException, InterruptedException {
        return StoreIsolation.ofService(services, service, "--store-service " + service);
    }
}
