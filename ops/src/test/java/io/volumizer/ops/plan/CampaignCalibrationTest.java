package io.volumizer.ops.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.domain.topology.Topology;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.plan.NodeTypes.NodeType;
import io.volumizer.ops.plan.SizeFunction.Form;

/**
 * A campaign run's folder (src/test/resources/campaign-run: 1, 2, 5 and 10 million documents, each size imported,
 * measured and reindexed, costs made of known functions of the size) over the committed calibration.
 */
class CampaignCalibrationTest {

    private static final Path RUN = Path.of("src/test/resources/campaign-run");
    private static final NodeType NODE = new NodeType("test.xlarge", 16, 64, 2000);

    private static Calibration calibration() throws Exception {
        return CampaignCalibration.of(Calibration.read(Path.of("../" + CalibrationOptions.COMMITTED_CALIBRATION)), RUN);
    }

    @Test
    void eachCostTheCampaignMeasuredBecomesAFunctionOfSize() throws Exception {
        Calibration costs = calibration();
        Calibration.SizeCosts bySize = costs.bySize();

        assertThat(bySize.campaign()).isEqualTo("growth 2026-12-02T12-30-00Z");
        // The reindex's MongoDB reads: 0.2 ms · (n / 1e6)^0.1, in seconds
        SizeFunction reads = bySize.cpu().get("reindex.metadata").get(Calibration.MONGODB);
        assertThat(reads.form()).isEqualTo(Form.POWER);
        assertThat(reads.b()).isCloseTo(0.1, within(1e-9));
        assertThat(costs.cpuSeconds("reindex.metadata", Calibration.MONGODB, 1e9))
                .isCloseTo(0.2e-3 * Math.pow(1000, 0.1), within(1e-12));
        // The JobManager and the TaskManager are Flink's
        assertThat(bySize.cpu().get("reindex.metadata").get(Calibration.FLINK).a()).isCloseTo(0.105e-3, within(1e-12));
        // The import ran with the index: MongoDB's CPU split in the calibration's proportions (164.5 : 0.3 µs), an
        // import at its middle size, still a power of 0.2
        SizeFunction writes = bySize.cpu().get("import").get(Calibration.MONGODB);
        assertThat(writes.form()).isEqualTo(Form.POWER);
        assertThat(writes.b()).isCloseTo(0.2, within(1e-9));
        assertThat(writes.fromDocuments()).isEqualTo(0.5e6);
        // A search request's search-engine CPU: 2 + 0.5·ln(n / 1e6) ms; the step measured both scenarios together
        SizeFunction search = bySize.requestCpu().get(Calibration.SEARCH_REQUESTS).get(Calibration.SEARCH);
        assertThat(search.form()).isEqualTo(Form.LOG);
        assertThat(search.b()).isCloseTo(0.5e-3, within(1e-12));
        assertThat(bySize.requestCpu().get(Calibration.NAVIGATION).get(Calibration.SEARCH)).isEqualTo(search);
        assertThat(bySize.requestCpu().get(Calibration.NAVIGATION).get("api").a()).isCloseTo(1e-3, within(1e-12));
        assertThat(bySize.p95Millis().get(Calibration.SEARCH_REQUESTS).form()).isEqualTo(Form.POWER);
        assertThat(bySize.bytesScale().get(Calibration.SEARCH_PRIMARY).form()).isEqualTo(Form.CONSTANT);
        assertThat(bySize.bytesScale().get(Calibration.MONGODB_INDEXES).b()).isCloseTo(0.05, within(1e-9));
        assertThat(costs.largestMeasuredDocuments()).isEqualTo(1e7);
        assertThat(costs.sources()).singleElement().asString().contains("growth 2026-12-02T12-30-00Z (stopped, "
                + "stopped because disk: 9.6 GiB free").contains("12 steps, 500,000 to 10,000,000 documents");
        // What the campaign did not measure stays the calibration's
        assertThat(costs.cpuSeconds("index.live", Calibration.SEARCH, 1e9)).isEqualTo(costs.cpu().get("index.live")
                .get(Calibration.SEARCH));
    }

    @Test
    void aPlanPastTheLargestSizeMeasuredSaysHowFar() throws Exception {
        Planner.Request request = new Planner.Request(1e9, 5000, 24, 30, 8, new Planner.Interactive(100, 50), NODE,
                NODE, NODE);
        Topology one = Topology.single(GeneratorSettings.DEFAULT_REPOSITORY);

        Planner.Blueprint plan = Planner.plan(request, calibration(), one, DocumentShares.of(one,
                GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, 50)));

        assertThat(plan.sizes()).isEqualTo("Extrapolated: costs evaluated at up to 1,000,000,000 documents, 100.0× the "
                + "largest size measured (10,000,000).");
        assertThat(plan.p95Millis().get(Calibration.SEARCH_REQUESTS)).isCloseTo(5 * Math.pow(1000, 0.3), within(1e-6));
        // 50 searches and 100 navigations a second, each (2 + 0.5·ln 1000) ms of the search engine
        double perRequest = (2 + 0.5 * Math.log(1000)) / 1000;
        assertThat(plan.searchDataNodes().needs().get("interactive navigation and search CPU"))
                .isCloseTo(150 * perRequest / (16 * Planner.CPU_TARGET), within(1e-9));
        assertThat(PlanCommand.markdown(plan, one.source())).contains("100.0× the largest size measured")
                .contains("The search p95 at this size");
    }

    @Test
    void aFolderThatIsNoRunIsAClearError(@TempDir Path empty) {
        assertThatThrownBy(() -> CampaignCalibration.of(Calibration.read(Path.of("../"
                + CalibrationOptions.COMMITTED_CALIBRATION)), empty)).hasMessageContaining("is not a campaign run's "
                        + "folder (no run.json)");
    }
}
