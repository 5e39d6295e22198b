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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.harness.Progress;
import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;

/**
 * What the runner writes reads back into the format's records without loss: each kind's JSON as the step code builds
 * it (a warmed-up measure, a reindex, a bulk update, an ACL change), and every step of the report's fixture runs,
 * written through the writer (which refuses a field the records do not define) and read by {@link RunFolder}.
 */
class RunFolderWriterTest {

    /** Numbers equal by value (20 and 20.0): the records keep the figure, not its JSON spelling. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> a.equals(b)
            || a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;

    @TempDir
    Path dir;

    /** A step's result as LocalCampaign begins it. */
    private static ObjectNode step(int position, String id, String kind) {
        ObjectNode result = RunFolder.JSON.createObjectNode().put("position", position).put("id", id)
                .put("kind", kind);
        result.putObject("size").put("label", "1M").put("documents", 1_000_000L);
        return result;
    }

    /** A reindex's result as LocalCampaign builds it, its series and CPU by the step code's own helpers. */
    private static ObjectNode reindexResult() {
        ObjectNode result = step(3, "reindex-1M", "reindex");
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

    /** A measure after its warm-up, its CPU a request. */
    private static ObjectNode warmedUpMeasureResult() {
        ObjectNode result = step(2, "measure-1M", "measure").put("warmUpSeconds", 10L).put("seconds", 30.0);
        result.putArray("latencies").addObject().put("scenario", "search").put("ratePerSecond", 5.0)
                .put("requests", 150L).put("errors", 0L).put("p50Ms", 12.1).put("p95Ms", 30.4).put("p99Ms", 41.0)
                .put("maxMs", 55.2);
        Observations.cpu(result, Map.of("opensearch", 3.0), Map.of("opensearch", 4.5), 0, 150);
        return result;
    }

    /** A bulk update's result as CommandSteps builds it: its command followed into a rate, a series, its status. */
    private static ObjectNode bulkResult() {
        ObjectNode result = step(4, "bulk-1M", "bulk");
        commandFollowed(result, "bulk", 250_000L).put("total", 250_000L).put("skipped", 0L);
        result.putObject("changes").put("expected", 250_000L).put("mongodb", 250_000L).put("search", 250_000L)
                .put("reconciled", true);
        Observations.cpu(result, Map.of("flink-taskmanager", 40.0), Map.of("flink-taskmanager", 95.0), 250_000, 0);
        return result;
    }

    /** An ACL change's result as CommandSteps builds it, here with a mismatch the brute-force walk found. */
    private static ObjectNode aclResult() {
        ObjectNode result = step(5, "acl-1M", "acl");
        commandFollowed(result, "acl", 1_003_711L).put("rounds", 3L);
        result.putObject("changes").put("checked", 1_003_712L).put("mismatches", 1L).put("mongodb", 1_003_712L)
                .put("search", 1_003_712L).put("reconciled", false);
        result.putObject("reconciliation").put("expected", 1_003_714L).put("mongodb", 1_003_712L)
                .put("search", 1_003_712L).put("deadLetters", 2).put("reconciled", false);
        result.putArray("notes").add("ACL mismatch: st-TX-0001/f-2 readAcl [compliance] expected [compliance, u-1]");
        return result;
    }

    /** A command's rate and series as CommandSteps records them while following it; returns its status' node. */
    private static ObjectNode commandFollowed(ObjectNode result, String stage, long processed) {
        Progress progress = new Progress(processed);
        Series series = new Series(stage, 0, 0);
        LocalCampaign.reading(progress, 0);
        LocalCampaign.reading(progress, processed / 2);
        series.sample(1_000_000_000L, processed / 2);
        LocalCampaign.reading(progress, processed);
        series.sample(2_000_000_000L, processed);
        LocalCampaign.rate(result.putArray("rates"), stage, progress);
        series.addTo(result.putArray("series"));
        return result.putObject("command").put("id", "c-0001").put("state", "COMPLETED")
                .put("processed", processed).put("errors", 0L).put("docsPerSecond", 4210.5);
    }

    static Stream<Arguments> stepsAsTheStepCodeBuildsThem() {
        return Stream.of(Arguments.of("002-measure-1M", warmedUpMeasureResult()),
                Arguments.of("003-reindex-1M", reindexResult()), Arguments.of("004-bulk-1M", bulkResult()),
                Arguments.of("005-acl-1M", aclResult()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stepsAsTheStepCodeBuildsThem")
    void aStepsResultAsTheStepCodeBuildsItReadsBackAsItWasWritten(String key, ObjectNode written) throws Exception {
        RunFolderWriter writer = new RunFolderWriter(dir);
        writer.writeRun(RunFolderWriter.strictly(RunFolder.JSON.valueToTree(Map.of("campaign", "c", "runId", "r",
                "status", CampaignRun.RUNNING)), CampaignRun.class));
        Files.createDirectories(dir.resolve(RunFolder.STEPS));
        writer.writeStep(key, written);

        JsonNode read = RunFolder.JSON.valueToTree(RunFolder.read(dir).steps().get(0));
        assertThat(read.equals(BY_VALUE, written)).as("%s%nread back as%n%s", written, read).isTrue();
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
