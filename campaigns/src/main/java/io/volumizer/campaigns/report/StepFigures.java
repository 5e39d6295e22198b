package io.volumizer.campaigns.report;

import java.util.LinkedHashMap;
import java.util.Map;

import io.volumizer.ops.campaign.StepResult;

/** A step's figures for the tables, by name ("import docs/s", "search p95 ms"...), in a fixed order. */
final class StepFigures {

    private StepFigures() {
    }

    static Map<String, Double> of(StepResult step) {
        Map<String, Double> figures = new LinkedHashMap<>();
        put(figures, "seconds", step.seconds());
        put(figures, "documents after", step.documents() == null ? null : step.documents().after());
        step.rates().forEach(rate -> put(figures, rate.stage() + " docs/s", rate.sustainedElseAverage()));
        step.latencies().forEach(latency -> {
            put(figures, latency.scenario() + " p50 ms", latency.p50Ms());
            put(figures, latency.scenario() + " p95 ms", latency.p95Ms());
            put(figures, latency.scenario() + " p99 ms", latency.p99Ms());
            put(figures, latency.scenario() + " errors", latency.errors());
        });
        if (step.bytesPerDocument() != null && !step.bytesPerDocument().byStore().isEmpty()) {
            put(figures, "bytes a document (all stores)", step.bytesPerDocument().byStore().values().stream()
                    .mapToDouble(Double::doubleValue).sum());
        }
        step.cpu().forEach(service -> {
            put(figures, service.service() + " CPU ms/doc", service.msPerDocument());
            put(figures, service.service() + " CPU ms/request", service.msPerRequest());
        });
        put(figures, "dead letters", step.deadLetters() == null ? null : step.deadLetters().total());
        return figures;
    }

    private static void put(Map<String, Double> figures, String name, Number value) {
        if (value != null) {
            figures.put(name, value.doubleValue());
        }
    }
}
