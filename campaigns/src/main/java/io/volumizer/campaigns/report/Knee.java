package io.volumizer.campaigns.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;

/**
 * Where a figure turns for the worse as the repository grows: the first size at which a stage's sustained rate falls,
 * or a scenario's p95 rises, by more than a threshold relative to the previous size.
 */
record Knee(String figure, String unit, SizeSeries.AtSize before, SizeSeries.AtSize after, boolean rate) {

    /** The rule as the page states it. */
    static String rule(double thresholdPercent) {
        return "For each stage's sustained rate and each scenario's p95 latency, every size is compared with the "
                + "previous one: a rate that falls by more than " + Format.number(thresholdPercent) + " %, or a p95 "
                + "that rises by more than " + Format.number(thresholdPercent) + " %, marks a knee; the first one of "
                + "each figure is named.";
    }

    /** The knees of a run: its stages' rates first, then its scenarios' p95. */
    static List<Knee> of(RunFolder run, double thresholdPercent) {
        List<Knee> knees = new ArrayList<>();
        SizeSeries.rates(run.steps()).forEach(series ->
                first(series, "docs/s", true, thresholdPercent).ifPresent(knees::add));
        SizeSeries.latencies(run.steps(), 95).forEach(series ->
                first(new SizeSeries(series.name() + " p95", series.points()), "ms", false, thresholdPercent)
                        .ifPresent(knees::add));
        return knees;
    }

    /** The first consecutive pair of sizes where the figure worsens by more than the threshold. */
    static Optional<Knee> first(SizeSeries series, String unit, boolean higherIsBetter, double thresholdPercent) {
        double limit = thresholdPercent / 100;
        List<SizeSeries.AtSize> points = series.points();
        for (int i = 1; i < points.size(); i++) {
            double previous = points.get(i - 1).value();
            double change = previous == 0 ? 0 : points.get(i).value() / previous - 1;
            if (higherIsBetter ? change < -limit : change > limit) {
                return Optional.of(new Knee(series.name(), unit, points.get(i - 1), points.get(i), higherIsBetter));
            }
        }
        return Optional.empty();
    }

    double changePercent() {
        return (after.value() / before.value() - 1) * 100;
    }

    /** "import fell from 8,400 to 3,100 docs/s (-63 %) between 5M and 10M". */
    String sentence() {
        return figure + (rate ? " fell" : " rose") + " from " + Format.number(before.value()) + " to "
                + Format.number(after.value()) + " " + unit + " (" + (changePercent() > 0 ? "+" : "")
                + Format.number(changePercent()) + " %) between " + before.size() + " and " + after.size();
    }

    /** What the page says when no figure has a knee. */
    static String none(RunFolder run) {
        List<String> sizes = run.steps().stream().map(StepResult::sizeLabel).filter(Objects::nonNull).distinct().toList();
        return "No knee within the sizes run" + (sizes.isEmpty() ? "" : " (" + String.join(", ", sizes) + ")") + ".";
    }
}
