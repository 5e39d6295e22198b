package io.volumizer.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.options.endpoints.LocalEndpoints;

/**
 * {@code bin/volumizer}'s service commands on a state folder of the test's own: what they do with a name they do
 * not know, and with PID files that no longer name the process that was started; its choice of search engine; how
 * it writes a service's configuration; and that it stays a thin launcher.
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
    void searchChoosesTheEngineOfEveryCommandAndAnUnknownOneIsRefused() throws Exception {
        assertThat(run("help").out).containsPattern("Search engine \\(--search, or SEARCH_ENGINE\\): elasticsearch, at http://\\S+:9200");

        for (List<String> chosen : List.of(List.of("help", "--search", "opensearch"), List.of("--search=opensearch", "help"))) {
            assertThat(run(chosen.toArray(String[]::new)).out).as("%s", chosen)
                    .containsPattern("opensearch, at http://\\S+:9201")
                    .contains("Services: kafka registry opensearch mongodb", "optional (started only when named): prometheus elasticsearch");
        }
        Result unknown = run("status", "--search", "solr");
        assertThat(unknown.exitCode).isNotZero();
        assertThat(unknown.err).contains("unknown search engine 'solr' (--search elasticsearch or opensearch)");
    }

    @Test
    void aPidFileOfAnotherProcessIsNotTheServiceAndDownLeavesThatProcessAlone() throws Exception {
        long pid = unrelated.pid();
        Files.writeString(pidFile("mongodb"), pid + " 1\n"); // the PID, recorded with another start time

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
        assertThat(sourced(state, "record_pid mongodb " + pid).exitCode).isZero();

        assertThat(run("status").out).containsPattern("mongodb\\s+\\d+\\s+" + pid + "\\s");
        assertThat(run("pids").out).isEqualTo("mongodb " + pid + "\n");
        assertThat(run("down", "mongodb").exitCode).isZero();

        assertThat(unrelated.waitFor(10, TimeUnit.SECONDS)).as("stopped").isTrue();
    }

    @Test
    void aConfigurationTemplateGetsTheShellsValuesAndLeavesOtherExpressionsAlone() throws Exception {
        Path template = Files.writeString(state.resolve("template"), "port: ${KAFKA_PORT}\nhome: ${home}/data\nfile: ${sys:log.file}\n");
        String render = "render_conf " + root().resolve("conf/services").relativize(template) + " \"$STATE/out\"";

        Result rendered = sourced(state, "KAFKA_PORT=19092; home=/es; " + render);
        Result unset = sourced(state, render);

        assertThat(rendered.exitCode).as(rendered.err).isZero();
        assertThat(Files.readString(state.resolve("out"))).isEqualTo("port: 19092\nhome: /es/data\nfile: ${sys:log.file}\n");
        assertThat(unset.exitCode).isNotZero();
        assertThat(unset.err).contains("${home} is not set");
    }

    /**
     * Logic belongs in Java, where it is typed and tested, and configuration in conf/services/: the launcher only
     * installs, starts and stops the services and calls Java. In particular it parses no JSON and runs no inline
     * Python, and it never sources a file that Java wrote (the demo's record is Java's: DemoRecord). Its budget: 550
     * lines, since it keeps the services only (a table of their facts, one start, wait and stop) and hands every other
     * command to the command line in Java as it is.
     */
    @Test
    void theLauncherStaysThin() throws Exception {
        List<Path> scripts = new ArrayList<>(List.of(root().resolve("bin/volumizer")));
        try (var lib = Files.list(root().resolve("bin/lib"))) {
            lib.filter(file -> file.toString().endsWith(".sh")).sorted().forEach(scripts::add);
        }
        long lines = 0;
        List<String> forbidden = new ArrayList<>();
        for (Path script : scripts) {
            List<String> text = Files.readAllLines(script);
            lines += text.size();
            for (int i = 0; i < text.size(); i++) {
                if (FORBIDDEN.matcher(text.get(i)).find()) {
                    forbidden.add(root().relativize(script) + ":" + (i + 1) + ": " + text.get(i).strip());
                }
            }
        }

        assertThat(lines).as("lines of bin/volumizer and bin/lib/*.sh").isLessThanOrEqualTo(550);
        assertThat(forbidden).as("inline Python, JSON parsing or the demo's record in the launcher").isEmpty();
    }

    private static final Pattern FORBIDDEN = Pattern.compile("python3? -c|json\\.load|\\bjq\\b|--json|demo\\.env");

    private Path pidFile(String service) {
        return state.resolve("run/" + service + ".pid");
    }

    @Test
    void theEndpointsFileHoldsTheConfiguredPortsAndTheJavaSideReadsTheChosenEngines() throws Exception {
        Result written = sourced(state, "KAFKA_PORT=19092; VOLUMIZER_ARCHIVES_MONGODB_URI=mongodb://a:1;"
                + " render_conf endpoints.properties \"$STATE/endpoints.properties\"");
        assertThat(written.exitCode).as(written.err).isZero();
        try {
            LocalEndpoints.load(state, "opensearch");

            assertThat(System.getProperty("volumizer.kafka.bootstrap")).isEqualTo("127.0.0.1:19092");
            assertThat(System.getProperty(LocalEndpoints.SEARCH_URL)).isEqualTo("http://127.0.0.1:9201");
            assertThat(System.getProperty("volumizer.archive-mongodb.uri")).isEqualTo("mongodb://a:1");
        } finally {
            System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("volumizer."))
                    .forEach(System::clearProperty);
        }
    }

    record Result(int exitCode, String out, String err) {
    }

    /** Runs a command with bin/lib's functions and conf/volumizer.conf's settings, on a state folder. */
    static Result sourced(Path state, String command) throws Exception {
        Path root = root();
        Process process = new ProcessBuilder("bash", "-c", "set -euo pipefail; ROOT=$1; STATE=$2; source \"$ROOT/conf/volumizer.conf\";"
                + " for lib in common services build; do source \"$ROOT/bin/lib/$lib.sh\"; done; " + command,
                "bash", root.toString(), state.toString()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), out, err);
    }

    private Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(root().resolve("bin/volumizer").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("VOLUMIZER_STATE", state.toString());
        // conf/volumizer.conf's defaults, whatever the shell running the tests chose
        List.of("SEARCH_ENGINE", "ES_PORT", "OS_PORT", "BIND_HOST").forEach(builder.environment()::remove);
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
