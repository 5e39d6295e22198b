package io.volumizer.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.ops.services.PidFile;

/**
 * The PID file format ({@link PidFile}) on both sides: what {@code bin/lib/services.sh} records, Java trusts, and
 * what Java writes, {@code bin/lib/services.sh} trusts; a file whose start ticks differ names no service on either.
 */
class PidFileContractTest {

    @TempDir
    Path state;

    private Process service;

    @BeforeEach
    void startAProcess() throws Exception {
        service = new ProcessBuilder("sleep", "300").start();
    }

    @AfterEach
    void stopIt() {
        service.destroyForcibly();
    }

    @Test
    void whatBashRecordsJavaTrusts() throws Exception {
        Path file = pidFile("mongodb");
        bash("record_pid mongodb " + service.pid());

        PidFile recorded = PidFile.read(file).orElseThrow();

        assertThat(recorded).isEqualTo(PidFile.of(service.toHandle()));
        assertThat(recorded.isCurrent()).isTrue();
    }

    @Test
    void whatJavaWritesBashTrusts() throws Exception {
        PidFile.of(service.toHandle()).write(pidFile("kafka"));

        assertThat(bash("service_pid kafka")).isEqualTo(service.pid() + "\n");
    }

    @Test
    void otherStartTicksNameNoServiceOnEitherSide() throws Exception {
        PidFile other = new PidFile(service.pid(), PidFile.of(service.toHandle()).startTicks() + 1);
        other.write(pidFile("kafka"));

        assertThat(bash("service_pid kafka")).isEmpty();
        assertThat(PidFile.read(PidFile.path(state, "kafka")).orElseThrow().isCurrent()).isFalse();
    }

    private Path pidFile(String service) throws Exception {
        Path file = PidFile.path(state, service);
        Files.createDirectories(file.getParent());
        return file;
    }

    /** Runs a command with bin/lib's functions on the test's state folder; returns what it printed. */
    private String bash(String command) throws Exception {
        BinVolumizerTest.Result result = BinVolumizerTest.sourced(state, command);
        assertThat(result.exitCode()).as(command + ": " + result.err()).isZero();
        return result.out();
    }
}
