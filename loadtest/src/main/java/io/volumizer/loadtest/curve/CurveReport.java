package io.volumizer.loadtest.curve;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The import curve's table (markdown, JSON) and chart (PNG): the users' p95 against the docs/s the import achieved,
 * one point per pass, the target as a line and the hold pass marked; then whether hold mode met its two figures
 * against the fastest fixed limit that met the target in all its passes, by the rule hold is held to (run before and
 * after hold, to be fair to a repository that grows as the curve runs). A
 * pass whose import ran out of backlog measured its input, not its limit: it is marked, and neither judged nor
 * compared with.
 */
final class CurveReport {

    /** The share of windows hold mode must keep under the target. */
    static final double WINDOWS_UNDER = 0.95;
    /** Hold mode's achieved rate against the best fixed rate that met the target. */
    static final double OF_BEST_FIXED = 0.8;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One pass: its rate, what the server measured, and the Gatling report's count-weighted p95 of the reads. */
    record Point(ImportRate rate, PassRecorder.Measured measured, double clientReadsP95Millis, long failedRequests) {

        /**
         * Whether the pass met the target as hold mode must: under it in {@value #WINDOWS_UNDER} of its windows. A
         * fixed rate is judged by the same rule as hold: a pass's p95 alone can sit well under the target while some of
         * its windows are over it.
         */
        boolean meets(double targetSeconds) {
            long windows = measured.windowP95s().size();
            return windows > 0 && measured.windowsUnder(targetSeconds) >= WINDOWS_UNDER * windows;
        }

        boolean passP95Under(double targetSeconds) {
            return measured.p95Seconds() < targetSeconds;
        }
    }

    private final String name;
    private final String route;
    private final double targetSeconds;
    private final List<Point> points;

    CurveReport(String name, String route, double targetSeconds, List<Point> points) {
        this.name = name;
        this.route = route;
        this.targetSeconds = targetSeconds;
        this.points = points;
    }

    /**
     * A fixed limit and its passes. A curve may run a limit on both sides of the hold pass, because the repository
     * grows with every pass and the same limit costs the users more later: the limit then meets the target only if
     * every one of its passes did, and its rate is their mean, the rate at the middle of the run where hold ran.
     */
    record FixedLimit(ImportRate.Fixed rate, List<Point> passes) {

        double achievedDocsPerSecond() {
            return passes.stream().mapToDouble(p -> p.measured().achievedDocsPerSecond()).average().orElse(0);
        }

        boolean all(Predicate<Point> met) {
            return passes.stream().allMatch(met);
        }

        boolean ranDry() {
            return passes.stream().anyMatch(p -> p.measured().ranDry());
        }

        /** {@code 2500} or, run more than once, {@code 2500: 2,135 and 1,757 docs/s, mean}. */
        String describe() {
            return passes.size() == 1 ? rate.label() : rate.label() + ": " + String.join(" and ", passes.stream()
                    .map(p -> String.format(Locale.ROOT, "%,.0f", p.measured().achievedDocsPerSecond())).toList())
                    + " docs/s, mean";
        }
    }

    /** By mean achieved rate; at equal rates, a limit that did not run dry ranks higher. */
    private static final Comparator<FixedLimit> FASTEST = Comparator.comparingDouble(FixedLimit::achievedDocsPerSecond)
            .thenComparing(limit -> !limit.ranDry());

    /** The fixed limits, the import reading, whose every pass met the target; in the order first run. */
    private Stream<FixedLimit> fixedUnderTarget() {
        return fixedWhere(p -> p.meets(targetSeconds));
    }

    /** The fixed limits, the import reading, every pass of which is {@code met}; in the order first run. */
    private Stream<FixedLimit> fixedWhere(Predicate<Point> met) {
        Map<ImportRate.Fixed, List<Point>> byLimit = new LinkedHashMap<>();
        points.stream().filter(p -> p.rate() instanceof ImportRate.Fixed && p.rate().reads())
                .forEach(p -> byLimit.computeIfAbsent((ImportRate.Fixed) p.rate(), rate -> new ArrayList<>()).add(p));
        return byLimit.entrySet().stream().map(limit -> new FixedLimit(limit.getKey(), limit.getValue()))
                .filter(limit -> limit.all(met));
    }

    /** The fixed limit with the highest mean achieved rate whose passes all met the target, none dry. */
    Optional<FixedLimit> bestFixed() {
        return fixedUnderTarget().filter(limit -> !limit.ranDry()).max(FASTEST);
    }

    Optional<Point> hold() {
        return points.stream().filter(p -> p.rate() instanceof ImportRate.Hold).findFirst();
    }

    /** The passes whose import ran out of backlog. */
    List<Point> dry() {
        return points.stream().filter(p -> p.measured().ranDry()).toList();
    }

    /**
     * The hold pass's verdict: under the target in enough windows, and fast enough against the best fixed rate;
     * none when the hold pass ran out of backlog.
     */
    String verdict() {
        StringBuilder text = new StringBuilder();
        List<Point> dry = dry();
        if (!dry.isEmpty()) {
            text.append(String.format(Locale.ROOT, "Ran out of backlog (the import's lag at 0): %s; those passes are "
                    + "not judged (a larger --backlog-ceiling or --backlog-customers gives them documents to read). ",
                    String.join(", ", dry.stream().map(p -> p.rate().label() + " in " + p.measured().dryWindows()
                            + " of " + p.measured().windowP95s().size() + " windows").toList())));
        }
        Optional<Point> hold = hold();
        if (hold.isEmpty()) {
            return text.append("No hold pass.").toString();
        }
        if (hold.get().measured().ranDry()) {
            return text.append("Hold: not measured.").toString();
        }
        PassRecorder.Measured measured = hold.get().measured();
        long windows = measured.windowP95s().size();
        long under = measured.windowsUnder(targetSeconds);
        boolean windowsMet = hold.get().meets(targetSeconds);
        text.append(String.format(Locale.ROOT,
                "Hold: %s p95 under %.0f ms in %d of %d windows (%.1f%%; needs %.0f%%): %s.",
                route, targetSeconds * 1000, under, windows, windows == 0 ? 0 : 100.0 * under / windows,
                WINDOWS_UNDER * 100, windowsMet ? "met" : "not met"));
        Optional<FixedLimit> best = bestFixed();
        Optional<FixedLimit> fasterDry = fixedUnderTarget().max(FASTEST).filter(FixedLimit::ranDry);
        if (fasterDry.isPresent()) {
            text.append(String.format(Locale.ROOT, " Its rate is not compared: the fixed limit %s met the target "
                    + "faster than any other but ran dry, so the largest fixed rate that meets it is not known.",
                    fasterDry.get().rate().label()));
        } else if (best.isEmpty()) {
            text.append(" No fixed rate met the target: nothing to compare the hold pass's rate with.");
        } else {
            double ratio = measured.achievedDocsPerSecond() / best.get().achievedDocsPerSecond();
            text.append(String.format(Locale.ROOT, " Its import achieved %,.0f docs/s, %.2f× the %,.0f docs/s of the "
                    + "largest fixed rate that met the target in every pass (%s; needs %.1f×): %s.", measured.achievedDocsPerSecond(),
                    ratio, best.get().achievedDocsPerSecond(), best.get().describe(), OF_BEST_FIXED,
                    ratio >= OF_BEST_FIXED ? "met" : "not met"));
        }
        fixedWhere(p -> p.passP95Under(targetSeconds)).filter(limit -> !limit.ranDry()).max(FASTEST)
                .filter(byPass -> best.map(b -> !b.rate().equals(byPass.rate())).orElse(true))
                .ifPresent(byPass -> text.append(String.format(Locale.ROOT, " Against the largest fixed rate whose "
                        + "pass p95 alone was under the target (%s, %,.0f docs/s): %.2f×.", byPass.describe(),
                        byPass.achievedDocsPerSecond(), measured.achievedDocsPerSecond() / byPass.achievedDocsPerSecond())));
        return text.toString();
    }

    /** The rate of the pass at {@code index}, {@code (after hold)} added to a fixed pass run after the hold pass. */
    private String label(int index) {
        return points.get(index).rate().label() + (afterHold(index) ? " (after hold)" : "");
    }

    /** Whether the pass at {@code index} is a fixed one run after the hold pass. */
    private boolean afterHold(int index) {
        return points.get(index).rate() instanceof ImportRate.Fixed
                && points.subList(0, index).stream().anyMatch(p -> p.rate() instanceof ImportRate.Hold);
    }

    String markdown(String header) {
        StringBuilder md = new StringBuilder("# Import curve: ").append(name).append("\n\n").append(header).append("\n\n")
                .append("| import rate | achieved docs/s | ").append(route).append(" p95 (API) ms | windows under ")
                .append(Math.round(targetSeconds * 1000)).append(" ms | ").append(route)
                .append(" req/s | reads p95 (Gatling) ms | failed requests | pass s | windows dry |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int index = 0; index < points.size(); index++) {
            Point point = points.get(index);
            PassRecorder.Measured m = point.measured();
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %.1f | %d / %d | %.0f | %.0f | %d | %.0f | %d |%n",
                    label(index), m.achievedDocsPerSecond(), m.p95Seconds() * 1000, m.windowsUnder(targetSeconds),
                    m.windowP95s().size(), m.requests() / m.seconds(), point.clientReadsP95Millis(),
                    point.failedRequests(), m.seconds(), m.dryWindows()));
        }
        md.append("\n").append(verdict()).append("\n\nChart: `").append(name).append(".png`.\n");
        return md.toString();
    }

    ObjectNode json() {
        ObjectNode root = JSON.createObjectNode().put("name", name).put("route", route).put("targetP95Seconds", targetSeconds);
        ArrayNode passes = root.putArray("passes");
        for (int index = 0; index < points.size(); index++) {
            Point point = points.get(index);
            PassRecorder.Measured m = point.measured();
            ObjectNode pass = passes.addObject().put("rate", point.rate().label()).put("afterHold", afterHold(index))
                    .put("achievedDocsPerSecond", m.achievedDocsPerSecond()).put("p95Seconds", m.p95Seconds())
                    .put("requests", m.requests()).put("seconds", m.seconds())
                    .put("clientReadsP95Millis", point.clientReadsP95Millis()).put("failedRequests", point.failedRequests())
                    .put("dryWindows", m.dryWindows());
            m.windowP95s().forEach(pass.putArray("windowP95Seconds")::add);
        }
        root.put("verdict", verdict());
        return root;
    }

    void write(Path folder, String header) throws IOException {
        Files.writeString(folder.resolve(name + ".md"), markdown(header));
        Files.writeString(folder.resolve(name + ".json"), JSON.writeValueAsString(json()));
        ChartUtils.saveChartAsPNG(folder.resolve(name + ".png").toFile(), chart(), 1000, 600);
    }

    private JFreeChart chart() {
        XYSeries fixed = new XYSeries("fixed rates (labelled by limit)", true);
        XYSeries hold = new XYSeries("hold mode", true);
        for (Point point : points) {
            (point.rate() instanceof ImportRate.Hold ? hold : fixed).add(point.measured().achievedDocsPerSecond(),
                    point.measured().p95Seconds() * 1000);
        }
        XYSeriesCollection data = new XYSeriesCollection(fixed);
        data.addSeries(hold);
        JFreeChart chart = ChartFactory.createXYLineChart("Users' " + route + " p95 against the import's rate",
                "import achieved, docs/s", route + " p95, ms", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setSeriesPaint(0, new Color(0x1f, 0x77, 0xb4));
        renderer.setSeriesLinesVisible(1, false);
        renderer.setSeriesPaint(1, Color.RED);
        renderer.setSeriesShape(1, new Ellipse2D.Double(-6, -6, 12, 12));
        plot.setRenderer(renderer);
        ValueMarker target = new ValueMarker(targetSeconds * 1000, Color.DARK_GRAY, new BasicStroke(1.5f,
                BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
        target.setLabel("target " + Math.round(targetSeconds * 1000) + " ms");
        plot.addRangeMarker(target);
        for (int index = 0; index < points.size(); index++) {
            Point point = points.get(index);
            String text = label(index) + (point.measured().ranDry() ? " (ran dry)" : "");
            XYTextAnnotation label = new XYTextAnnotation(text, point.measured().achievedDocsPerSecond(),
                    point.measured().p95Seconds() * 1000);
            label.setTextAnchor(TextAnchor.BOTTOM_LEFT);
            plot.addAnnotation(label);
        }
        return chart;
    }
}
