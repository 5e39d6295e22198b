package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads the statistics table of a report Gatling 3.15.1 wrote (rows kept from a real navigation run). */
class ReportTest {

    private static final Path FIXTURE = Path.of("src/test/resources/report");

    @Test
    void readsEachRequestRowAndTheTotal() throws IOException {
        Report report = Report.read(FIXTURE);
        assertThat(report.requests().keySet()).containsExactly(Report.ALL, "get document", "children");
        assertThat(report.all()).isEqualTo(new Report.Stats(3787, 0, 151.48, 0, 5, 11, 37, 60, 390, 10));
        Report.Stats children = report.requests().get("children");
        assertThat(children.count()).isEqualTo(910);
        assertThat(children.p95()).isEqualTo(47);
        assertThat(children.failedPercent()).isZero();
    }

    @Test
    void aPageWithoutTheTableIsAClearError(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("index.html"), "<html>not a report</html>");
        assertThatThrownBy(() -> Report.read(folder)).isInstanceOf(IOException.class)
                .hasMessageContaining("no statistics table");
    }

    @Test
    void latestPicksTheNewestRunOfTheSimulation(@TempDir Path results) throws IOException {
        for (String run : new String[] {"navigationsimulation-20261122030000000", "navigationsimulation-20261122040000000",
            "searchsimulation-20261122050000000"}) {
            Files.createDirectories(results.resolve(run));
            Files.writeString(results.resolve(run).resolve("index.html"), "");
        }
        assertThat(Report.latest(results, "io.volumizer.loadtest.simulations.NavigationSimulation").getFileName())
                .hasToString("navigationsimulation-20261122040000000");
    }
}
