package io.volumizer.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.ops.services.PidFile;

/**
 * {@code bin/volumizer}'s service commands on a state folder of the test's own: what they do with a name they do
 * not know, and with PID files that no longer name the process that was started.
 */
class BinVolumizerTest {

    @TempDir
    Path state;

    private Process unrelated;

    @BeforeEach
    void startAnUnrelatedProcess() throws IOException {
        unrelated = new ProcessBuilder("sleep", "300").start();
        Files.createDirectories(state.resolve("run"));
    }

    @AfterEach
    void stopIt() {
        unrelated.destroyForcibly();
    }

    @Test
    void upOfAnUnknownServiceFailsAndNamesTheServices() throws Exception {
        Result result = run("up", "mongo");

        assertThat(result.exitCode).isNotZero();
        assertThat(result.err).contains("unknown service 'mongo'", "kafka", "mongodb", "flink-jobmanager");
    }

    @Test
    void aPidFileOfAnotherProcessIsNotTheServiceAndDownLeavesThatProcessAlone() throws Exception {
        long pid = unrelated.pid();
        new PidFile(pid, 1).write(pidFile("mongodb")); // the PID, recorded with another start time

        assertThat(run("status").out).containsPattern("mongodb\\s+\\d+\\s+-\\s+stopped");
        assertThat(run("down", "mongodb").exitCode).isZero();

        assertThat(unrelated.waitFor(1, TimeUnit.SECONDS)).as("still running").isFalse();
        assertThat(pidFile("mongodb")).doesNotExist();
    }

    @Test
    void aPidFileWithoutAStartTimeIsNotTrustedEither() throws Exception {
        Files.writeString(pidFile("kafka"), unrelated.pid() + "\n");

        assertThat(run("down", "kafka").exitCode).isZero();

        assertThat(unrelated.waitFor(1, TimeUnit.SECONDS)).as("still running").isFalse();
    }

    @Test
    void thePidOfTheProcessThatWasStartedIsTheServiceAndDownStopsIt() throws Exception {
        long pid = unrelated.pid();
        PidFile.of(unrelated.toHandle()).write(pidFile("mongodb"));

        assertThat(run("status").out).containsPattern("mongodb\\s+\\d+\\s+" + pid + "\\s");
        assertThat(run("down", "mongodb").exitCode).isZero();

        assertThat(unrelated.waitFor(10, TimeUnit.SECONDS)).as("stopped").isTrue();
    }

    private Path pidFile(String service) {
        return PidFile.of(state, service);
    }

    private record Result(int exitCode, String out, String err) {
    }

    private Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(root().resolve("bin/volumizer").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("VOLUMIZER_STATE", state.toString());
        Path err = state.resolve("stderr.txt");
        Process process = builder.redirectError(err.toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exitCode = process.waitFor();
        return new Result(exitCode, out, Files.readString(err));
    }

    /** The checkout whose bin/volumizer is tested: the one above the working directory. */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/volumizer"))) {
                return dir;
            }
        }
        throw new IllegalStateException("bin/volumizer not found above " + Path.of("").toAbsolutePath());
    }
}
