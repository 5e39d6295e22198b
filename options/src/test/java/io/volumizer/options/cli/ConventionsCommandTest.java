package io.volumizer.options.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import io.volumizer.options.conventions.MetricNames;

class ConventionsCommandTest {

    @Test
    void theShellFormatIsOneVariablePerNameThatTheShellReadsBack() throws Exception {
        String shell = run("--repository", "demo");

        assertThat(shell.lines()).contains("VOLUMIZER_REPOSITORY=demo",
                "VOLUMIZER_TOPICS_DOCUMENTS=volumizer.demo.documents",
                "VOLUMIZER_TOPICS_IMPORTED=volumizer.demo.imported",
                "VOLUMIZER_TOPICS_DEADLETTER=volumizer.demo.deadletter",
                "VOLUMIZER_CONSUMER_GROUPS_IMPORT=volumizer-demo-import",
                "VOLUMIZER_CONSUMER_GROUPS_INDEX=volumizer-demo-index",
                "VOLUMIZER_ELASTICSEARCH_INDEX_PREFIX=volumizer-",
                "VOLUMIZER_ELASTICSEARCH_INDICES='volumizer-*'",
                "VOLUMIZER_ELASTICSEARCH_TEMPLATE=volumizer-repositories",
                "VOLUMIZER_ELASTICSEARCH_ALIASES_DEMO=volumizer-demo",
                "VOLUMIZER_MONGODB_DATABASE=volumizer",
                "VOLUMIZER_METRICS_STAGE_PREFIX=" + MetricNames.PROMETHEUS_PREFIX);
        assertThat(shell.lines()).allMatch(line -> line.matches("VOLUMIZER_[A-Z0-9_]+=.+"));

        Process bash = new ProcessBuilder("bash", "-c",
                "set -eu; eval \"$(cat)\"; echo \"$VOLUMIZER_ELASTICSEARCH_INDEX_PREFIX_PATTERN|$VOLUMIZER_METRICS_API\"")
                .start();
        bash.getOutputStream().write(shell.getBytes(StandardCharsets.UTF_8));
        bash.getOutputStream().close();
        String read = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(read).isEqualTo("[a-z0-9][a-z0-9_-]*|"
                + String.join(" ", MetricNames.apiPrometheusNames().stream().sorted().toList()));
    }

    @Test
    void theYamlFormatHoldsEveryTopologyRepositorysAlias() throws Exception {
        Map<String, Object> yaml = new Yaml().load(run("--format", "yaml", "--repository", "bank",
                "--topology", Path.of("..", "topologies", "11b.yaml").toString()));

        assertThat(yaml).containsEntry("topics", Map.of("documents", "volumizer.bank.documents",
                "imported", "volumizer.bank.imported", "deadletter", "volumizer.bank.deadletter",
                "control", "volumizer.bank.control"));
        assertThat(((Map<?, ?>) yaml.get("elasticsearch")).get("aliases")).isEqualTo(Map.of(
                "us-east", "volumizer-us-east", "us-west", "volumizer-us-west",
                "archives", "volumizer-statements-archive"));
        assertThat(((Map<?, ?>) yaml.get("metrics")).get("stage"))
                .isEqualTo(MetricNames.stagePrometheusNames().stream().sorted().toList());
    }

    @Test
    void withoutARepositoryTheNamesAreTheDefaultsAndALaterRepositoryWins() throws Exception {
        assertThat(run().lines()).contains("VOLUMIZER_TOPICS_DOCUMENTS=volumizer.documents",
                "VOLUMIZER_CONSUMER_GROUPS_IMPORT=volumizer-import").noneMatch(line -> line.contains("ALIASES"));
        assertThat(run("--repository", "demo", "--repository", "bank").lines())
                .contains("VOLUMIZER_TOPICS_DOCUMENTS=volumizer.bank.documents");
    }

    /** The command's output, run as bin/volumizer runs it. */
    private static String run(String... args) {
        StringWriter out = new StringWriter();
        assertThat(ConventionsCommand.commandLine().setOut(new PrintWriter(out)).execute(args))
                .as("exit code of %s", List.of(args)).isZero();
        return out.toString();
    }
}
