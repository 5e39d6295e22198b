package io.volumizer.benchmarks.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.services.PidFile;
import picocli.CommandLine;

/** {@code --store-service}: the store and the other services, found by their PID files. */
class StoreIsolationOptionsTest {

    @TempDir
    Path state;

    private final Process store = start();
    private final Process other = start();

    @AfterEach
    void stop() {
        store.destroy();
        other.destroy();
    }

    @Test
    void pinsTheNamedServiceToTheStoresCoresAndEveryOtherRunningServiceToTheRest() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        assumeTrue(cores >= 2, "needs 2 cores");
        record("mongodb", PidFile.of(store.toHandle()));
        record("kafka", PidFile.of(other.toHandle()));
        record("registry", new PidFile(ProcessHandle.current().pid(), 1)); // stale: not a running service
        assertThat(services().running()).containsOnlyKeys("mongodb", "kafka");

        try (StoreIsolation isolation = options("--store-service", "mongodb").isolate(services())) {
            assertThat(StoreIsolation.allowedCores(store.pid())).isEqualTo(StoreIsolation.storeCores(cores));
            assertThat(StoreIsolation.allowedCores(other.pid())).isEqualTo(StoreIsolation.otherCores(cores));
        }
    }

    @Test
    void aStoreThatDoesNotRunIsAClearError() {
        assertThat(options().enabled()).isFalse();
        assertThatThrownBy(() -> options("--store-service", "mongodb").isolate(services()))
                .hasMessageContaining("--store-service mongodb is not running");
    }

    private static StoreIsolationOptions options(String... args) {
        StoreIsolationOptions options = new StoreIsolationOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    private LocalServices services() {
        return new LocalServices(Path.of("."), state);
    }

    private void record(String service, PidFile pidFile) throws Exception {
        Files.createDirectories(PidFile.path(state, service).getParent());
        pidFile.write(PidFile.path(state, service));
    }

    private static Process start() {
        try {
            return new ProcessBuilder("sleep", "60").start();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
