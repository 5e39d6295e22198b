package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.ops.services.LocalServices;
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
        record("mongodb", store.pid());
        record("kafka", other.pid());
        Files.writeString(state.resolve("run/registry.pid"), ProcessHandle.current().pid() + " 1\n"); // stale: not a running service
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
        return new LocalServices(checkout(), state);
    }

    /** Records a PID as bin/volumizer does when it starts a service (bin/lib/services.sh's record_pid). */
    private void record(String service, long pid) throws Exception {
        Files.createDirectories(state.resolve("run"));
        Process recording = new ProcessBuilder("bash", "-c", "set -euo pipefail; ROOT=$1; STATE=$2; source \"$ROOT/conf/volumizer.conf\";"
                + " source \"$ROOT/bin/lib/common.sh\"; source \"$ROOT/bin/lib/services.sh\"; record_pid \"$3\" \"$4\"",
                "bash", checkout().toString(), state.toString(), service, Long.toString(pid)).inheritIO().start();
        assertThat(recording.waitFor()).isZero();
    }

    private static Path checkout() {
        return LocalServices.ofThisCheckout().root();
    }

    private static Process start() {
        try {
            return new ProcessBuilder("sleep", "60").start();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
