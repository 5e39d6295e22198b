package io.volumizer.campaigns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.campaigns.run.InterruptOnShutdown;
import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.services.LocalServices;

/**
 * A campaign stopped as a user or a process manager stops it, SIGTERM to {@code bin/volumizer campaign run} while
 * its first import runs: the jobs it started do not run on, run.json says where it stopped, and the same command
 * runs that step again to a reconciled end.
 */
class CampaignInterruptIT {

    private final LocalServices services = LocalServices.ofThisCheckout();
    private final FlinkSessionClient flink = new FlinkSessionClient(System.getProperty("volumizer.flink.rest"));

    @TempDir
    Path results;

    @Test
    void aCampaignStoppedDuringAnImportStopsItsJobsRecordsWhereAndResumesThatStep() throws Exception {
        String smoke = services.root().resolve("campaigns/smoke.yaml").toString();
        Set<String> before = flink.jobs().stream().map(job -> job.path("jid").asText()).collect(Collectors.toSet());
        ProcessBuilder builder = new ProcessBuilder(services.root().resolve("bin/volumizer").toString(), "campaign",
                "run", smoke, "--results", results.toString(), "--new").redirectErrorStream(true);
        builder.environment().put("VOLUMIZER_STATE", services.state().toString());
        Process campaign = builder.start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(campaign.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
                if (line.startsWith("step 1/6 import-2000 ...")) {
                    awaitRunning(before, 2);
                    // SIGTERM through the handle: Process.destroy() would also close the output read here.
                    campaign.toHandle().destroy();
                }
            }
        }
        assertThat(campaign.waitFor(InterruptOnShutdown.GRACE.toSeconds() + 30, TimeUnit.SECONDS)).isTrue();
        assertThat(output).contains("stopped: interrupted during 001-import-2000");

        Path run;
        try (Stream<Path> runs = Files.list(results.resolve("smoke"))) {
            run = runs.findFirst().orElseThrow();
        }
        RunFolder stopped = RunFolder.read(run);
        assertThat(stopped.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(stopped.run().stoppedBecause()).startsWith("interrupted during 001-import-2000");
        assertThat(stopped.progress().completed()).isEmpty();
        assertThat(started(before)).as("the campaign's jobs after it stopped").isNotEmpty()
                .allSatisfy(job -> assertThat(job.path("state").asText()).as(job.toString())
                        .isIn("CANCELED", "FINISHED"));

        String resumed = services.volumizer(Map.of(), List.of("campaign", "run", smoke, "--results", results.toString(),
                "--stop-after", "1"));
        assertThat(resumed).contains("resuming " + run).contains("step 1/6 import-2000 done");
        RunFolder again = RunFolder.read(run);
        assertThat(again.steps()).hasSize(1);
        assertThat(again.steps().get(0).reconciliation().reconciled()).isTrue();
        assertThat(again.steps().get(0).documents().after()).isEqualTo(again.steps().get(0).reconciliation().expected());
    }

    /** The jobs started since {@code before}. */
    private List<JsonNode> started(Set<String> before) throws Exception {
        return flink.jobs().stream().filter(job -> !before.contains(job.path("jid").asText())).toList();
    }

    /** Until {@code count} jobs started since {@code before} run: the import is under way. */
    private void awaitRunning(Set<String> before, int count) throws Exception {
        for (int wait = 0; wait < 1200; wait++) {
            if (started(before).stream().filter(job -> job.path("state").asText().equals("RUNNING")).count() >= count) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the campaign's import jobs did not start: " + started(before));
    }
}
