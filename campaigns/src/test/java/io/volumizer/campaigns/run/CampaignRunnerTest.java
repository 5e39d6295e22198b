package io.volumizer.campaigns.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignFile;
import io.volumizer.campaigns.file.CampaignStep;
import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.RunProgress;

/** The runner's bookkeeping: progress, resume, stop conditions; the steps are recorded, not run on services. */
class CampaignRunnerTest {

    private static final String CAMPAIGN = """
            name: two
            stop: {diskFreeBelow: 1GiB, after: 1h}
            sizes: [1k, 2k]
            each:
              - import: {}
              - measure: {search: 1, seconds: 1}
            """;

    @TempDir
    Path dir;

    private final List<String> ran = new ArrayList<>();
    private long diskFree = 1L << 40;
    private double stepSeconds = 1;

    /** Records the steps it is asked to run, each as taking {@link #stepSeconds}. */
    private ObjectNode record(CampaignStep step) {
        ran.add(step.key());
        return RunFolder.JSON.createObjectNode().put("position", step.position()).put("seconds", stepSeconds);
    }

    private CampaignRunner runner(Path file) {
        Campaign campaign = CampaignFile.load(file);
        return new CampaignRunner(campaign, file, dir.resolve("results"), () -> diskFree,
                () -> RunFolder.JSON.valueToTree(Map.of("machine", Map.of("cpu", "test"))),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private Path file(String text) throws Exception {
        Path file = dir.resolve("two.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void progressKeepsTheFinishedStepsAndTheOneUnderWay() {
        Campaign campaign = CampaignFile.parse("c", CAMPAIGN);
        CampaignStep first = campaign.steps().get(0);
        RunProgress progress = RunProgress.NONE.starting(first.key());
        assertThat(progress.current()).isEqualTo("001-import-1k");
        assertThat(progress.finished(first.key())).isFalse();
        progress = progress.done(first.key());
        assertThat(progress.current()).isNull();
        assertThat(progress.completed()).containsExactly("001-import-1k");
        assertThat(progress.finished(first.key())).isTrue();
    }

    @Test
    void aRunStoppedAfterSomeStepsResumesWithoutRepeatingThem() throws Exception {
        Path file = file(CAMPAIGN);
        RunFolder stopped = runner(file).run(this::record, false, 1);
        assertThat(ran).containsExactly("001-import-1k");
        assertThat(stopped.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(stopped.run().stoppedBecause()).contains("--stop-after 1");
        assertThat(runner(file).unfinished()).map(RunFolder::path).contains(stopped.path());

        RunFolder resumed = runner(file).run(this::record, false, 0);
        assertThat(resumed.path()).isEqualTo(stopped.path());
        assertThat(ran).containsExactly("001-import-1k", "002-measure-1k", "003-import-2k", "004-measure-2k");
        assertThat(resumed.run().status()).isEqualTo(CampaignRun.COMPLETED);
        assertThat(resumed.progress().completed()).hasSize(4);
        assertThat(resumed.run().resumed()).hasSize(1);
        assertThat(resumed.run().stoppedBecause()).isNull();
        assertThat(Files.list(resumed.path().resolve(RunFolder.STEPS))).hasSize(4);
        assertThat(runner(file).unfinished()).isEmpty();
    }

    @Test
    void aStepThatFailsIsRunAgainOnResume() throws Exception {
        Path file = file(CAMPAIGN);
        assertThatThrownBy(() -> runner(file).run(step -> {
            if (step.position() == 2) {
                throw new IllegalStateException("store down");
            }
            return record(step);
        }, false, 0)).hasMessage("store down");
        RunFolder failed = runner(file).unfinished().orElseThrow();
        assertThat(failed.run().status()).isEqualTo(CampaignRun.FAILED);
        assertThat(failed.run().stoppedBecause()).isEqualTo("002-measure-1k: store down");
        assertThat(failed.progress().current()).isEqualTo("002-measure-1k");
        runner(file).run(this::record, false, 0);
        assertThat(ran).containsExactly("001-import-1k", "002-measure-1k", "003-import-2k", "004-measure-2k");
    }

    @Test
    void anInterruptedStepStopsTheRunResumablyAndRunsAgainOnResume() throws Exception {
        Path file = file(CAMPAIGN);
        RunFolder stopped = runner(file).run(step -> {
            if (step.position() == 2) {
                throw new IllegalStateException("waiting for the stores", new InterruptedException());
            }
            return record(step);
        }, false, 0);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(stopped.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(stopped.run().stoppedBecause()).startsWith("interrupted during 002-measure-1k")
                .contains("resume with the same command");
        assertThat(stopped.progress().completed()).containsExactly("001-import-1k");
        assertThat(runner(file).unfinished()).isPresent();
        runner(file).run(this::record, false, 0);
        assertThat(ran).containsExactly("001-import-1k", "002-measure-1k", "003-import-2k", "004-measure-2k");
    }

    @Test
    void aStepLeftWithItsThreadInterruptedStopsTheRunAndTheFlagIsCleared() throws Exception {
        Path file = file(CAMPAIGN);
        RunFolder stopped = runner(file).run(step -> {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("a request failed");
        }, false, 0);
        assertThat(Thread.interrupted()).isFalse();
        assertThat(stopped.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(stopped.run().stoppedBecause()).startsWith("interrupted during 001-import-1k");
    }

    @Test
    void aChangedCampaignFileIsNotResumedButANewRunMayBegin() throws Exception {
        Path file = file(CAMPAIGN);
        runner(file).run(this::record, false, 1);
        Files.writeString(file, CAMPAIGN.replace("seconds: 1", "seconds: 2"));
        assertThatThrownBy(() -> runner(file).run(this::record, false, 0))
                .hasMessageContaining("changed since its unfinished run").hasMessageContaining("--new");
        Thread.sleep(1000); // a run's id is its start to the second
        RunFolder fresh = runner(file).run(this::record, true, 0);
        assertThat(fresh.run().status()).isEqualTo(CampaignRun.COMPLETED);
        assertThat(ran).hasSize(5);
    }

    @Test
    void theStopConditionsAreCheckedBeforeEveryStep() throws Exception {
        Path file = file(CAMPAIGN);
        diskFree = 1L << 29;
        RunFolder low = runner(file).run(this::record, false, 0);
        assertThat(ran).isEmpty();
        assertThat(low.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(low.run().stoppedBecause()).startsWith("disk: 0.5 GiB free, below the campaign's floor of 1.0 GiB");

        diskFree = 1L << 40;
        stepSeconds = 2400;
        RunFolder timed = runner(file).run(this::record, false, 0);
        assertThat(ran).containsExactly("001-import-1k", "002-measure-1k");
        assertThat(timed.run().stoppedBecause()).startsWith("time: its steps took PT1H20M");
        assertThat(timed.run().machine().cpu()).isEqualTo("test");
    }

    @Test
    void anImportThatWouldTakeTheDiskBelowItsFloorIsNotBegun() throws Exception {
        Path file = file("""
                name: grows
                stop: {diskFreeBelow: 1GiB}
                sizes: [1k, 2k, 4k]
                each:
                  - import: {}
                """);
        long bytesPerDocument = 1_000_000;
        long floor = 1L << 30;
        // Above the floor before the 4k import, below it after: stopped only by the projection.
        diskFree = floor + 3_500 * bytesPerDocument;
        long[] documents = {0};
        RunFolder run = runner(file).run(step -> {
            ran.add(step.key());
            diskFree -= (step.size().documents() - documents[0]) * bytesPerDocument;
            documents[0] = step.size().documents();
            ObjectNode result = RunFolder.JSON.createObjectNode().put("position", step.position()).put("seconds", 1);
            result.putObject("documents").put("after", documents[0]);
            result.putObject("stores").put("diskFreeBytes", diskFree);
            return result;
        }, false, 0);
        assertThat(ran).containsExactly("001-import-1k", "002-import-2k");
        assertThat(diskFree).isGreaterThan(floor);
        assertThat(run.run().status()).isEqualTo(CampaignRun.STOPPED);
        assertThat(run.run().stoppedBecause()).startsWith("disk: 2.4 GiB free would be 0.5 GiB after 003-import-4k "
                + "(1,000,000 bytes a document, what this run's steps took from 1,000 to 2,000 documents)");
    }
}
