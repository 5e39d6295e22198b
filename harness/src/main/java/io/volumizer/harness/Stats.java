package io.volumizer.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The figures of rounds: medians, and ratios of a figure to its baseline of the same rounds with their range. */
public final class Stats {

    private Stats() {
    }

    public static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    public static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    public static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** Per round, {@code figures[i] / baselines[i]}. */
    public static List<Double> ratios(List<Double> figures, List<Double> baselines) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(figures.size(), baselines.size()); i++) {
            ratios.add(figures.get(i) / baselines.get(i));
        }
        return ratios;
    }

    /** {@code 0.95× (0.90–0.99)}: the median of per-round ratios, with their range. */
    public static String ratioWithRange(List<Double> ratios) {
        return String.format(Locale.ROOT, "%.2f× (%.2f–%.2f)", median(ratios), min(ratios), max(ratios));
    }
}
