package io.volumizer.loadtest.curve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CurveReportTest {

    private static CurveReport.Point point(ImportRate rate, double achieved, double p95Millis, List<Double> windows) {
        return dry(rate, achieved, p95Millis, windows, 0);
    }

    private static CurveReport.Point dry(ImportRate rate, double achieved, double p95Millis, List<Double> windows,
            long dryWindows) {
        return new CurveReport.Point(rate, new PassRecorder.Measured(70, achieved, p95Millis / 1000, 7_000, windows,
                dryWindows), p95Millis + 1, 0);
    }

    private static List<Double> windows(int under, int over) {
        List<Double> p95s = new java.util.ArrayList<>(Collections.nCopies(under, 0.02));
        p95s.addAll(Collections.nCopies(over, 0.08));
        return p95s;
    }

    private static List<CurveReport.Point> curve(double holdAchieved, List<Double> holdWindows) {
        return List.of(point(new ImportRate.Fixed(0), 0, 6, windows(7, 0)),
                point(new ImportRate.Fixed(100), 99, 20, windows(7, 0)),
                point(new ImportRate.Fixed(250), 248, 45, windows(7, 0)),
                point(new ImportRate.Fixed(500), 497, 45, windows(6, 1)),
                point(new ImportRate.Max(), 2_400, 400, windows(0, 7)),
                point(new ImportRate.Hold(), holdAchieved, 40, holdWindows));
    }

    @Test
    void comparesHoldWithTheFastestFixedRateThatMetTheTarget() {
        CurveReport met = new CurveReport("curve", "navigation", 0.05, curve(210, windows(19, 1)));
        assertThat(met.bestFixed().orElseThrow().rate()).isEqualTo(new ImportRate.Fixed(250));
        assertThat(met.verdict()).contains("19 of 20 windows (95.0%", "0.85× the 248 docs/s", "(250;")
                .doesNotContain("not met")
                // 500 was under the target over its pass, but not in every window: not the reference, only mentioned
                .contains("whose pass p95 alone was under the target (500, 497 docs/s): 0.42×.");

        CurveReport slow = new CurveReport("curve", "navigation", 0.05, curve(150, windows(18, 2)));
        assertThat(slow.verdict()).contains("18 of 20 windows (90.0%; needs 95%): not met", "0.60×", "not met.");
    }

    @Test
    void aLimitRunOnBothSidesOfHoldMeetsTheTargetOnlyIfBothPassesDidAndCountsAtTheirMeanRate() {
        List<CurveReport.Point> points = List.of(point(new ImportRate.Fixed(0), 0, 6, windows(6, 0)),
                point(new ImportRate.Fixed(2000), 1_900, 30, windows(7, 0)),
                point(new ImportRate.Fixed(2500), 2_135, 44.8, windows(7, 0)),
                point(new ImportRate.Hold(), 1_566, 25.8, windows(29, 1)),
                point(new ImportRate.Fixed(2500), 1_757, 59.3, windows(1, 5)),
                point(new ImportRate.Fixed(2000), 1_700, 40, windows(6, 0)));
        CurveReport report = new CurveReport("curve", "navigation", 0.05, points);
        CurveReport.FixedLimit best = report.bestFixed().orElseThrow();
        assertThat(best.rate()).isEqualTo(new ImportRate.Fixed(2000));
        assertThat(best.achievedDocsPerSecond()).isEqualTo(1_800);
        assertThat(report.verdict()).contains("0.87× the 1,800 docs/s", "(2000: 1,900 and 1,700 docs/s, mean;",
                "needs 0.8×): met.");
        assertThat(report.markdown("header")).contains("| 2500 | 2,135 |", "| 2500 (after hold) | 1,757 |",
                "| 2000 (after hold) | 1,700 |");
    }

    @Test
    void judgesNoPassWhoseImportRanOutOfBacklog() {
        List<CurveReport.Point> points = new java.util.ArrayList<>(curve(210, windows(19, 1)));
        points.set(2, dry(new ImportRate.Fixed(250), 180, 30, windows(7, 0), 2));
        CurveReport fixedDry = new CurveReport("curve", "navigation", 0.05, points);
        assertThat(fixedDry.bestFixed().orElseThrow().rate()).isEqualTo(new ImportRate.Fixed(100));
        assertThat(fixedDry.verdict()).startsWith("Ran out of backlog (the import's lag at 0): 250 in 2 of 7 windows;")
                .contains("19 of 20 windows", "not compared: the fixed limit 250 met the target faster")
                .doesNotContain("× the");

        points.set(2, dry(new ImportRate.Fixed(250), 180, 90, windows(0, 7), 2)); // ran dry, over the target
        assertThat(new CurveReport("curve", "navigation", 0.05, points).verdict()).contains("2.12× the 99 docs/s");

        points.set(2, point(new ImportRate.Fixed(250), 248, 45, windows(7, 0)));
        points.set(5, dry(new ImportRate.Hold(), 900, 30, windows(20, 0), 5));
        CurveReport holdDry = new CurveReport("curve", "navigation", 0.05, points);
        assertThat(holdDry.dry()).extracting(CurveReport.Point::rate).containsExactly(new ImportRate.Hold());
        assertThat(holdDry.verdict()).endsWith("Hold: not measured.").doesNotContain(" met");
    }

    @Test
    void writesTheTableItsJsonAndAChart(@TempDir Path folder) throws IOException {
        new CurveReport("curve", "navigation", 0.05, curve(210, windows(19, 1))).write(folder, "header");
        assertThat(Files.readString(folder.resolve("curve.md"))).contains("| 250 | 248 | 45.0 | 7 / 7 |", "| hold | 210 |", "| 70 | 0 |");
        assertThat(Files.readString(folder.resolve("curve.json"))).contains("\"rate\" : \"max\"", "\"verdict\"", "\"dryWindows\" : 0");
        assertThat(ImageIO.read(folder.resolve("curve.png").toFile()).getWidth()).isEqualTo(1000);
    }
}
