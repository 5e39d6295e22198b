package io.volumizer.ops.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


class PlanComparisonTest {

    /** The checkout, whose node-type catalogue and topologies the comparison reads. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> TYPES = List.of("Root", "State", "CustomerFolder", "IdCard", "Account",
            "OpeningLetter", "Statement");

    /** Every generated type 1,000 bytes in each store and profile; every stage 100 µs in each process. */
    private static Calibration calibration() {
        Map<String, Calibration.TypeCosts> types = new LinkedHashMap<>();
        TYPES.forEach(type -> types.put(type, new Calibration.TypeCosts(1000, 200,
                Map.of("metadata", 1000.0, "live", 1000.0, "archive", 1000.0), 0)));
        Map<String, Double> each = Map.of(Calibration.FLINK, 1e-4, Calibration.MONGODB, 1e-4, Calibration.SEARCH, 1e-4,
                Calibration.KAFKA, 1e-4);
        return new Calibration(new Calibration.Machine(2, "test", "Elasticsearch 7.10.2", "2026-11-28"), types,
                Map.of("import", each, "index", each, "reindex", each), Map.of("documents", 500.0, "imported", 700.0));
    }

    @Test
    void eachPublishedWorkloadIsPlannedOnTheNodeTypesThatRanItWithTheErrorOfEachRow(@TempDir Path folder)
            throws Exception {
        PlanComparison.write(calibration(), ROOT, folder);

        String markdown = Files.readString(folder.resolve("plan-vs-published.md"));
        JsonNode json = new ObjectMapper().readTree(folder.resolve("plan-vs-published.json").toFile());
        assertThat(json).hasSize(PublishedLayouts.WORKLOADS.size());
        for (int i = 0; i < json.size(); i++) {
            PublishedLayouts.Workload workload = PublishedLayouts.WORKLOADS.get(i);
            JsonNode planned = json.get(i).path("planned");
            int nodes = planned.path("searchDataNodes").path("count").asInt();
            assertThat(planned.path("request").path("searchNode").path("name").asText())
                    .isEqualTo(workload.searchNode());
            assertThat(planned.path("request").path("interactive").path("searchPerSecond").asDouble())
                    .isEqualTo(PublishedLayouts.SEARCH_PER_SECOND);
            assertThat(planned.path("searchDataNodes").path("needs").has("interactive navigation and search CPU"))
                    .isTrue();
            assertThat(json.get(i).path("errors").path(PlanComparison.SEARCH_NODES).asDouble())
                    .isCloseTo(nodes / (double) workload.searchNodes() - 1, within(1e-9));
            assertThat(markdown).contains("## " + workload.name())
                    .contains("| search data nodes | " + workload.searchNodes() + " × " + workload.searchNode() + " | "
                            + nodes + " × " + workload.searchNode());
        }
        // 1 billion of the published 1,256 bytes in shards of 30 GiB: 39 where 35 ran
        assertThat(json.get(0).path("errors").path(PlanComparison.PRIMARY_SHARDS).asDouble())
                .isCloseTo(39 / 35.0 - 1, within(1e-9));
        assertThat(markdown).contains("| primary shards | 35 | 39 (1,170 GiB of primaries) | +11% |");
        assertThat(json.get(2).path("errors").path(PlanComparison.PRIMARY_SHARDS).isNull()).isTrue();
        assertThat(json.get(0).path("errors").path(PlanComparison.REINDEX_HOURS).isNull()).isTrue();
        // The published bytes in the plan, ours (1,000 + 200; 1,000 whatever the repository) beside it
        assertThat(markdown).contains("| 1,058 + 208; 1,256 |").contains("| 1,000 + 200; 1,000 |")
                .contains("security benchmark");
    }
}
