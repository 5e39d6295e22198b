package io.volumizer.campaigns.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;

/**
 * What the runner writes reads back into the format's records without loss: a step's JSON as the step code builds
 * it, and every step of the report's fixture runs, written through the writer (which refuses a field the records do
 * not define) and read by {@link RunFolder}.
 */
class RunFolderWriterTest {

    /** Numbers equal by value (20 and 20.0): the records keep the figure, not its JSON spelling. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> a.equals(b)
            || a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;

    @TempDir
    Path dir;

    /** A reindex's result as LocalCampaign builds it, its series and CPU by the step code's own helpers. */
    private static ObjectNode reindexResult() {
        ObjectNode result = RunFolder.JSON.createObjectNode().put("position", 3).put("id", "reindex-1M")
                .put("kind", "reindex");
        result.putObject("size").put("label", "1M").put("documents", 1_000_000L);
        result.putArray("rates").addObject().put("stage", "reindex").put("documents", 1_003_712L)
                .put("docsPerSecond", 9123.4).put("sustainedDocsPerSecond", 9400.1).put("finishSeconds", 12.5);
        Series series = new Series("reindex", 0, 0);
        series.sample(5_000_000_000L, 45_000);
        series.sample(10_000_000_000L, 95_000);
        series.addTo(result.putArray("series"));
        result.put("started", "2026-12-02T12:40:00Z").put("ended", "2026-12-02T12:42:00Z").put("seconds", 120.3);
        result.putObject("stores").put("kafkaBytes", 123_456_789L).put("diskFreeBytes", 80_000_000_000L)
                .putObject("mongodb").put("documents", 1_003_712L).put("dataBytes", 1_112_000_000L);
        result.putObject("bytesPerDocument").put("mongodbData", 1108.0).put("searchPrimary", 451.2);
        result.putObject("deadLetters").put("total", 2).putObject("byReason").put("index: MapperParsingException", 2);
        result.putObject("reconciliation").put("expected", 1_003_714L).put("mongodb", 1_003_712L)
                .put("search", 1_003_712L).put("deadLetters", 2).put("reconciled", true);
        result.putObject("documents").put("before", 1_003_712L).put("after", 1_003_712L);
        Observations.cpu(result, Map.of("mongodb", 10.0, "api", 1.0), Map.of("mongodb", 22.5, "api", 1.5),
                1_003_712, 0);
        result.putArray("notes").add("a note for the report");
        return result;
    }

    @Test
    void aStepsResultAsTheStepCodeBuildsItReadsBackAsItWasWritten() throws Exception {
        RunFolderWriter writer = new RunFolderWriter(dir);
        writer.writeRun(RunFolderWriter.strictly(RunFolder.JSON.valueToTree(Map.of("campaign", "c", "runId", "r",
                "status", CampaignRun.RUNNING)), CampaignRun.class));
        Files.createDirectories(dir.resolve(RunFolder.STEPS));
        ObjectNode written = reindexResult();
        writer.writeStep("003-reindex-1M", written);

        JsonNode read = RunFolder.JSON.valueToTree(RunFolder.read(dir).steps().get(0));
        assertThat(read.equals(BY_VALUE, written)).as("%s%nread back as%n%s", written, read).isTrue();
        assertThat(read.path("cpu").findValuesAsText("service")).containsExactlyInAnyOrder("mongodb", "api");
    }

    @Test
    void everyStepOfTheReportsFixtureRunsIsWrittenAndReadBackWhole() throws Exception {
        try (Stream<Path> runs = Files.list(Path.of("src/test/resources/io/volumizer/campaigns/report/growth"))) {
            for (Path run : runs.toList()) {
                Path copy = dir.resolve(run.getFileName().toString());
                Files.createDirectories(copy.resolve(RunFolder.STEPS));
                RunFolderWriter writer = new RunFolderWriter(copy);
                CampaignRun described = RunFolderWriter.strictly(tree(run.resolve(RunFolder.RUN_FILE)), CampaignRun.class);
                writer.writeRun(described);
                List<StepResult> written = new ArrayList<>();
                try (Stream<Path> steps = Files.list(run.resolve(RunFolder.STEPS))) {
                    for (Path step : steps.sorted().toList()) {
                        written.add(writer.writeStep(step.getFileName().toString().replace(".json", ""), tree(step)));
                    }
                }

                RunFolder read = RunFolder.read(copy);
                assertThat(read.run()).isEqualTo(described);
                assertThat(read.steps()).isNotEmpty().isEqualTo(written);
            }
        }
    }

    @Test
    void aFieldTheFormatDoesNotDefineOrAFractionOfACountIsAnErrorNotALoss() {
        RunFolderWriter writer = new RunFolderWriter(dir);
        assertThatThrownBy(() -> writer.writeStep("003-reindex-1M", reindexResult().put("throughput", 1)))
                .hasMessageContaining("\"throughput\"");
        ObjectNode fraction = reindexResult();
        fraction.with("documents").put("after", 1.5);
        assertThatThrownBy(() -> writer.writeStep("003-reindex-1M", fraction)).hasMessageContaining("1.5");
    }

    private static JsonNode tree(Path file) throws Exception {
        return RunFolder.JSON.readTree(file.toFile());
    }
}
