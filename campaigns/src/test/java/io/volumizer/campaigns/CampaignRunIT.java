package io.volumizer.campaigns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.ops.services.LocalServices;

/**
 * campaigns/smoke.yaml run as a user runs it, {@code bin/volumizer campaign run}, on the local services: stopped
 * after its first step, then resumed to its end without running that step again; every step's file is checked.
 */
class CampaignRunIT {

    private static final ObjectMapper JSON = new ObjectMapper();
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
        assertThat(json(run.resolve("run.json")).path("status").asText()).isEqualTo("stopped");
        assertThat(json(run.resolve("progress.json")).path("completed")).hasSize(1);
        byte[] firstStep = Files.readAllBytes(run.resolve("steps/001-import-2000.json"));

        String second = services.volumizer(Map.of(), List.of("campaign", "run", smoke, "--results", results.toString()));
        assertThat(second).contains("resuming " + run).doesNotContain("step 1/6").contains("step 6/6 reindex-5000 done")
                .contains("completed");
        assertThat(Files.readAllBytes(run.resolve("steps/001-import-2000.json"))).isEqualTo(firstStep);
        JsonNode runJson = json(run.resolve("run.json"));
        assertThat(runJson.path("status").asText()).isEqualTo("completed");
        assertThat(runJson.path("machine").path("cores").asInt()).isPositive();
        assertThat(runJson.path("versions").path("java").asText()).isNotEmpty();
        assertThat(Files.readString(run.resolve("campaign.yaml"))).isEqualTo(Files.readString(Path.of(smoke)));
        List<String> steps = List.of("001-import-2000", "002-measure-2000", "003-reindex-2000", "004-import-5000",
                "005-measure-5000", "006-reindex-5000");
        for (String step : steps) {
            JsonNode result = json(run.resolve("steps/" + step + ".json"));
            assertThat(result.path("reconciliation").path("reconciled").asBoolean()).as(step).isTrue();
            long expected = result.path("reconciliation").path("expected").asLong();
            assertThat(expected).as(step).isGreaterThanOrEqualTo(result.path("size").path("documents").asLong());
            assertThat(result.path("documents").path("after").asLong()).as(step).isEqualTo(expected);
            assertThat(result.path("stores").path("search").path("primaryBytes").asLong()).as(step).isPositive();
            assertThat(result.path("bytesPerDocument").path("searchPrimary").asDouble()).as(step).isPositive();
            assertThat(result.path("cpu")).as(step).isNotEmpty();
            if (step.contains("measure")) {
                assertThat(result.path("latencies")).hasSize(2);
                for (JsonNode latency : result.path("latencies")) {
                    assertThat(latency.path("requests").asLong()).as(step).isPositive();
                    assertThat(latency.path("errors").asLong()).as(step).isZero();
                    assertThat(latency.path("p95Ms").asDouble()).as(step).isPositive();
                }
            } else {
                assertThat(result.path("series")).as(step).isNotEmpty();
                assertThat(result.path("series").get(0).path("points").size()).as(step).isGreaterThan(1);
                assertThat(result.path("rates").get(0).path("docsPerSecond").asDouble()).as(step).isPositive();
                assertThat(result.path("cpu").findValues("msPerDocument")).as(step).isNotEmpty();
            }
        }
        assertThat(json(run.resolve("steps/004-import-5000.json")).path("documents").path("before").asLong())
                .isEqualTo(json(run.resolve("steps/001-import-2000.json")).path("documents").path("after").asLong());
    }

    private static JsonNode json(Path file) throws Exception {
        return JSON.readTree(file.toFile());
    }
}
