package io.volumizer.benchmarks.calibration;

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

import io.volumizer.benchmarks.BenchCommand;
import io.volumizer.ops.plan.Calibration;
import io.volumizer.ops.plan.PlanComparison;

class PlanVsPublishedTest {

    /** The checkout, whose node-type catalogue and topologies the comparison reads. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void aCampaignRunMakesTheComparisonSizeAwareInOneCommand(@TempDir Path folder) throws Exception {
        // The command reads the checkout's files (node types, topologies) where bin/volumizer says it is
        System.setProperty("volumizer.root", ROOT.toString());
        int exit;
        try {
            exit = BenchCommand.commandLine().execute("plan-vs-published", "--campaign",
                    ROOT.resolve("ops/src/test/resources/campaign-run").toString(), "--results", folder.toString());
        } finally {
            System.clearProperty("volumizer.root");
        }

        assertThat(exit).isZero();
        String markdown = Files.readString(folder.resolve("plan-vs-published.md"));
        assertThat(markdown).contains("by campaign growth 2026-12-02T12-30-00Z")
                .contains("Extrapolated: costs evaluated at up to 1,000,000,000 documents, 100.0× the largest size "
                        + "measured (10,000,000).")
                .contains("| CPU a document, reindex.metadata, mongodb | power | ");
        Calibration bySize = Calibration.read(folder.resolve(PlanComparison.BY_SIZE + ".json"));
        assertThat(bySize.largestMeasuredDocuments()).isEqualTo(1e7);
        assertThat(bySize.bySize().cpu().get("reindex.metadata").get(Calibration.MONGODB).b()).isCloseTo(0.1,
                within(1e-9));
    }
}
