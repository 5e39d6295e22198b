package io.volumizer.campaigns.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.volumizer.ops.campaign.RunFolder;
import org.junit.jupiter.api.Test;
import io.volumizer.ops.campaign.RunFolder;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The report in Debian's headless Chromium (no service needed): it renders, and the check refuses a broken page. */
class ReportBrowserIT {

    @TempDir
    Path folder;

    private Path page(String name, String html) throws Exception {
        return Files.writeString(folder.resolve(name), html);
    }

    @Test
    void aRunsPageLoadsWithoutAnErrorAndEveryChartDrawsData() throws Exception {
        Path run = folder.resolve("run");
        copy(Fixtures.folder(Fixtures.WITH_KNEE), run);
        Path screenshot = Path.of("target/report-growth.png").toAbsolutePath();

        int exit = new CommandLine(new ReportCommand()).execute(run.toString(), "--check", "--screenshot", screenshot.toString());

        assertThat(exit).isZero();
        String html = Files.readString(run.resolve("report.html"));
        assertThat(html).contains("import fell from 7,600 to 4,300 docs/s (-43.4 %) between 5M and 10M");
        assertThat(Files.size(screenshot)).isPositive();
    }

    @Test
    void twoRunsSideBySideLoadWithoutAnErrorAndEveryChartDrawsData() throws Exception {
        String html = ReportPage.render(List.of(Fixtures.run(Fixtures.WITH_KNEE), Fixtures.run(Fixtures.WITHOUT_KNEE)), 25);
        Path screenshot = Path.of("target/report-compare.png").toAbsolutePath();

        assertThat(ReportCheck.problems(page("compare.html", html), screenshot)).isEmpty();
        assertThat(html).contains("A: <b>import fell from").contains("B: No knee within the sizes run");
    }

    @Test
    void aPageWithAScriptErrorIsRefused() throws Exception {
        String html = ReportPage.render(List.of(Fixtures.run(Fixtures.WITH_KNEE)), 25)
                .replace("</body>", "<script>undefinedReportFunction();</script></body>");

        assertThat(ReportCheck.problems(page("error.html", html), null))
                .anyMatch(problem -> problem.contains("undefinedReportFunction"));
    }

    @Test
    void aPageWithAChartWithoutDataIsRefused() throws Exception {
        List<RunFolder> runs = List.of(Fixtures.run(Fixtures.WITH_KNEE));
        List<Chart> charts = new ArrayList<>(ReportCharts.of(runs));
        charts.add(new Chart("chart-empty", "A chart without data", "x", "y", false,
                List.of(new Chart.Line("nothing", 0, false, List.of()))));

        assertThat(ReportCheck.problems(page("empty.html", new ReportPage(runs, 25, charts).render()), null))
                .containsExactly("chart chart-empty (A chart without data) drew no point");
    }

    private static void copy(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
            }
        }
    }
}
