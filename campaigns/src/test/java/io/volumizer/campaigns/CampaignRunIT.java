package io.volumizer.campaigns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;
import io.volumizer.ops.services.LocalServices;

/**
 * campaigns/smoke.yaml run as a user runs it, {@code bin/volumizer campaign run}, on the local services: stopped
 * after its first step, then resumed to its end without running that step again; every step's file is checked.
 */
class CampaignRunIT {

    private final LocalServices services = LocalServices.ofThisCheckout();

    @TempDir
    Path results;

    @Test
    void theSmokeCampaignRunsAStepThenResumesToItsEndWithEveryStepRecordedAndReconciled() throws Exception {
        String smoke = services.root().resolve("campaigns/smoke.yaml").toString();
        String first = services.volumizer(Map.of(), List.of("campaign", "run", smoke, "--results", results.toString(),
                "--new", "--stop-after", "1"));
        assertThat(first).contains("step 1/6 import-2000 done").doesNotContain("step 2/6");
        Path run;
        try (Stream<Path> runs = Files.list(results.resolve("smoke"))) {
            run = runs.findFirst().orElseThrow();
        }
        RunFolder stopped = RunFolder.read(run);
        assertThat(stopped.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(stopped.progress().completed()).hasSize(1);
        byte[] firstStep = Files.readAllBytes(run.resolve("steps/001-import-2000.json"));

        String second = services.volumizer(Map.of(), List.of("campaign", "run", smoke, "--results", results.toString()));
        assertThat(second).contains("resuming " + run).doesNotContain("step 1/6").contains("step 6/6 reindex-5000 done")
                .contains("completed");
        assertThat(Files.readAllBytes(run.resolve("steps/001-import-2000.json"))).isEqualTo(firstStep);
        RunFolder completed = RunFolder.read(run);
        assertThat(completed.run().status()).isEqualTo(CampaignRun.COMPLETED);
        assertThat(completed.run().machine().cores()).isPositive();
        assertThat(completed.run().versions().get("java")).isNotEmpty();
        assertThat(Files.readString(run.resolve("campaign.yaml"))).isEqualTo(Files.readString(Path.of(smoke)));
        assertThat(completed.steps()).extracting(StepResult::id).containsExactly("import-2000", "measure-2000",
                "reindex-2000", "import-5000", "measure-5000", "reindex-5000");
        for (StepResult result : completed.steps()) {
            String step = result.id();
            assertThat(result.reconciliation().reconciled()).as(step).isTrue();
            long expected = result.reconciliation().expected();
            assertThat(expected).as(step).isGreaterThanOrEqualTo(result.size().documents());
            assertThat(result.documents().after()).as(step).isEqualTo(expected);
            assertThat(result.stores().search().primaryBytes()).as(step).isPositive();
            assertThat(result.bytesPerDocument().searchPrimary()).as(step).isPositive();
            assertThat(result.cpu()).as(step).isNotEmpty();
            if (result.kind().equals("measure")) {
                assertThat(result.warmUpSeconds()).as(step).isEqualTo(2);
                assertThat(result.latencies()).as(step).hasSize(2).allSatisfy(latency -> {
                    assertThat(latency.requests()).as(step).isPositive();
                    assertThat(latency.errors()).as(step).isZero();
                    assertThat(latency.p95Ms()).as(step).isPositive();
                });
            } else {
                assertThat(result.series()).as(step).isNotEmpty();
                assertThat(result.series().get(0).points()).as(step).hasSizeGreaterThan(1);
                assertThat(result.rates().get(0).docsPerSecond()).as(step).isPositive();
                assertThat(result.cpu()).as(step).anyMatch(cpu -> cpu.msPerDocument() != null);
            }
        }
        assertThat(completed.steps().get(3).documents().before()).isEqualTo(completed.steps().get(0).documents().after());
    }
}
