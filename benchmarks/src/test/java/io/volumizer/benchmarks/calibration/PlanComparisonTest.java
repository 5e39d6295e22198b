package io.volumizer.benchmarks.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.ops.plan.Calibration;

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
    void eachPublishedWorkloadIsPlannedOnTheNodeTypesThatRanItAndShownBesideItsLayout(@TempDir Path folder)
            throws Exception {
        PlanComparison.write(calibration(), ROOT, folder);

        String markdown = Files.readString(folder.resolve("plan-vs-published.md"));
        JsonNode json = new ObjectMapper().readTree(folder.resolve("plan-vs-published.json").toFile());
        assertThat(json).hasSize(PublishedLayouts.WORKLOADS.size());
        for (int i = 0; i < json.size(); i++) {
            PublishedLayouts.Workload workload = PublishedLayouts.WORKLOADS.get(i);
            JsonNode planned = json.get(i).path("planned");
            assertThat(planned.path("request").path("searchNode").path("name").asText())
                    .isEqualTo(workload.searchNode());
            assertThat(markdown).contains("## " + workload.name())
                    .contains("| search data nodes | " + workload.searchNodes() + " × " + workload.searchNode() + " | "
                            + planned.path("searchDataNodes").path("count").asInt() + " × " + workload.searchNode());
        }
        // 1,000 + 200 bytes a document in MongoDB, 1,000 in the search engine, whatever the repository
        assertThat(markdown).contains("| 1,000 + 200; 1,000 |");
    }
}
