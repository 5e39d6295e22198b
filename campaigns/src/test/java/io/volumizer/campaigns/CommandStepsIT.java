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
 * A campaign of a measure with its warm-up, a bulk update and an ACL change (command-steps.yaml beside this class),
 * run as a user runs it, {@code bin/volumizer campaign run}, on the local services: each command's step records the
 * documents it changed and reconciles them with what MongoDB and the index hold.
 */
class CommandStepsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final LocalServices services = LocalServices.ofThisCheckout();

    @TempDir
    Path results;

    @Test
    void theBulkAndAclStepsChangeTheRepositoryAndReconcileTheirChangesFromTheStores() throws Exception {
        Path campaign = Path.of("src/test/resources/io/volumizer/campaigns/command-steps.yaml").toAbsolutePath();
        String output = services.volumizer(Map.of(), List.of("campaign", "run", campaign.toString(), "--results",
                results.toString(), "--new"));
        assertThat(output).contains("step 4/4 acl-2000 done").contains("completed").doesNotContain("NOT RECONCILED");
        Path run;
        try (Stream<Path> runs = Files.list(results.resolve("command-steps"))) {
            run = runs.findFirst().orElseThrow();
        }

        JsonNode measure = json(run.resolve("steps/002-measure-2000.json"));
        assertThat(measure.path("warmUpSeconds").asLong()).isEqualTo(2);
        for (JsonNode latency : measure.path("latencies")) {
            // The warm-up's requests are not counted: only the measure's 3 s at 5 a second.
            assertThat(latency.path("requests").asLong()).isEqualTo(15);
        }

        JsonNode bulk = json(run.resolve("steps/003-bulk-2000.json"));
        assertThat(bulk.path("command").path("state").asText()).isEqualTo("COMPLETED");
        long selected = bulk.path("changes").path("expected").asLong();
        assertThat(selected).isPositive();
        assertThat(bulk.path("command").path("processed").asLong()).isEqualTo(selected);
        assertThat(bulk.path("changes").path("mongodb").asLong()).isEqualTo(selected);
        assertThat(bulk.path("changes").path("search").asLong()).isEqualTo(selected);
        assertThat(bulk.path("changes").path("reconciled").asBoolean()).isTrue();
        assertThat(bulk.path("rates").get(0).path("stage").asText()).isEqualTo("bulk");
        assertThat(bulk.path("rates").get(0).path("documents").asLong()).isEqualTo(selected);
        assertThat(bulk.path("cpu").findValues("msPerDocument")).isNotEmpty();

        JsonNode acl = json(run.resolve("steps/004-acl-2000.json"));
        assertThat(acl.path("command").path("state").asText()).isEqualTo("COMPLETED");
        assertThat(acl.path("command").path("processed").asLong()).isPositive();
        assertThat(acl.path("changes").path("checked").asLong()).isEqualTo(acl.path("documents").path("after").asLong());
        assertThat(acl.path("changes").path("mismatches").asLong()).isZero();
        assertThat(acl.path("changes").path("mongodb").asLong()).isPositive()
                .isEqualTo(acl.path("changes").path("search").asLong());
        assertThat(acl.path("rates").get(0).path("stage").asText()).isEqualTo("acl");
        assertThat(acl.path("cpu").findValues("msPerDocument")).isNotEmpty();

        for (String step : List.of("001-import-2000", "002-measure-2000", "003-bulk-2000", "004-acl-2000")) {
            JsonNode result = json(run.resolve("steps/" + step + ".json"));
            assertThat(result.path("reconciliation").path("reconciled").asBoolean()).as(step).isTrue();
            assertThat(result.path("documents").path("after").asLong()).as(step)
                    .isEqualTo(result.path("reconciliation").path("expected").asLong());
        }
    }

    private static JsonNode json(Path file) throws Exception {
        return JSON.readTree(file.toFile());
    }
}
