package io.volumizer.campaigns.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import io.volumizer.ops.campaign.StepResult;

/** One figure (a stage's rate, a scenario's p95...) at each size of a run, the sizes in increasing order. */
record SizeSeries(String name, List<AtSize> points) {

    /** The figure at one size: the size's label, the documents in the repository then, the value. */
    record AtSize(String size, double documents, double value) {
    }

    /**
     * The figures the given steps measured, by size: a step gives {@code figures} (name to value) for the size it
     * belongs to; when several steps of a size give one figure, the later one counts (it measured the repository
     * as the size left it). Series in the order their names first appear.
     */
    static List<SizeSeries> collect(List<StepResult> steps, Predicate<StepResult> which,
            Function<StepResult, Map<String, Double>> figures) {
        Map<String, Map<String, AtSize>> bySize = new LinkedHashMap<>();
        for (StepResult step : steps) {
            String size = step.sizeLabel();
            Long documents = step.repositoryDocuments();
            if (size == null || documents == null || !which.test(step)) {
                continue;
            }
            figures.apply(step).forEach((name, value) -> {
                if (value != null) {
                    bySize.computeIfAbsent(name, n -> new LinkedHashMap<>()).put(size, new AtSize(size, documents, value));
                }
            });
        }
        List<SizeSeries> series = new ArrayList<>();
        bySize.forEach((name, points) -> series.add(new SizeSeries(name,
                points.values().stream().sorted(Comparator.comparingDouble(AtSize::documents)).toList())));
        return series;
    }

    /** Each stage's sustained rate (docs/s) at each size, from every step that moved documents. */
    static List<SizeSeries> rates(List<StepResult> steps) {
        return collect(steps, step -> true, step -> {
            Map<String, Double> rates = new LinkedHashMap<>();
            step.rates().forEach(rate -> rates.put(rate.stage(), rate.sustainedElseAverage()));
            return rates;
        });
    }

    /** A latency percentile (50, 95, 99) of each scenario at each size. */
    static List<SizeSeries> latencies(List<StepResult> steps, int percentile) {
        return collect(steps, step -> true, step -> {
            Map<String, Double> latencies = new LinkedHashMap<>();
            step.latencies().forEach(latency -> latencies.put(latency.scenario(), latency.percentileMs(percentile)));
            return latencies;
        });
    }
}
