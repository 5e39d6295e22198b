package io.volumizer.ops.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.ops.plan.NodeTypes.NodeType;

class HelmValuesTest {

    private static final NodeType NODE = new NodeType("test.large", 10, 21, 1000);
    private static final DocumentShares ALL_STATEMENTS = new DocumentShares(Map.of("demo", Map.of("Statement", 1.0)));

    /** Import 1 ms of Flink a document, the metadata's index 0.5 ms, a live index (text included) 2 ms. */
    private static Calibration calibration() {
        Calibration.TypeCosts statement = new Calibration.TypeCosts(1500, 1000, Map.of("metadata", 500.0, "live",
                1500.0), 40_000);
        Map<String, Double> importCosts = Map.of(Calibration.FLINK, 0.001, Calibration.MONGODB, 0.001,
                Calibration.SEARCH, 0.0);
        Map<String, Double> metadata = Map.of(Calibration.FLINK, 0.0005, Calibration.MONGODB, 0.0,
                Calibration.SEARCH, 0.0005);
        Map<String, Double> live = Map.of(Calibration.FLINK, 0.002, Calibration.MONGODB, 0.0,
                Calibration.SEARCH, 0.0005);
        return new Calibration(new Calibration.Machine(2, "test", "elasticsearch 7.10.2", "2026-12-02"),
                Map.of("Statement", statement), Map.of("import", importCosts, "index.metadata", metadata,
                        "index.live", live, "reindex", metadata), Map.of("documents", 600.0, "imported", 900.0));
    }

    private static Map<String, Map<String, Object>> steps(String profile) {
        Topology topology = TopologyFile.parse("test", """
                repositories:
                  demo: {profile: %s}
                routing:
                  - to: demo
                """.formatted(profile));
        Planner.Blueprint plan = Planner.plan(new Planner.Request(1e8, 7000, 10, 30, 8,
                Planner.Interactive.NONE, NODE, NODE, NODE),
                calibration(), topology, ALL_STATEMENTS);
        Map<String, Map<String, Map<String, Object>>> values = new Yaml().load(HelmValues.of(plan));
        return values.get("steps");
    }

    @Test
    void eachStepStartsAtItsPlannedSlotsAndMayDoubleThem() {
        Map<String, Map<String, Object>> steps = steps("metadata");

        // 7,000 docs/s * 1 ms / 0.7 = 10 slots; the index 7,000 * 0.5 ms / 0.7 = 5
        assertThat(steps.get("import")).containsEntry("enabled", true).containsEntry("parallelism", 10)
                .containsEntry("autoscaler", Map.of("enabled", true, "minParallelism", 1, "maxParallelism", 20));
        assertThat(steps.get("import")).doesNotContainKey("args");
        assertThat(steps.get("index")).containsEntry("parallelism", 5).doesNotContainKey("args")
                .containsEntry("autoscaler", Map.of("enabled", true, "minParallelism", 1, "maxParallelism", 10));
        assertThat(steps.get("import-and-index")).isEqualTo(Map.of("enabled", false));
        assertThat(steps).doesNotContainKey("file-text");
    }

    @Test
    void aLiveRepositorysTextGetsAJobOfItsOwnSizedByWhatReadingItCosts() {
        Map<String, Map<String, Object>> steps = steps("live");

        // the text: 7,000 docs/s * (2 - 0.5) ms / 0.7 = 15 slots; the index 20 slots in all, 5 of them the metadata
        assertThat(steps.get("file-text")).containsEntry("parallelism", 15).doesNotContainKey("args")
                .containsEntry("autoscaler", Map.of("enabled", true, "minParallelism", 1, "maxParallelism", 30));
        assertThat(steps.get("index")).containsEntry("parallelism", 5)
                .containsEntry("args", List.of("--file-text", "none"));
    }
}
