package io.volumizer.campaigns.report;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** A step's figures for the tables, by name ("import docs/s", "search p95 ms"...), in a fixed order. */
final class StepFigures {

    private StepFigures() {
    }

    static Map<String, Double> of(JsonNode step) {
        Map<String, Double> figures = new LinkedHashMap<>();
        put(figures, "seconds", RunFolder.number(step, "seconds"));
        put(figures, "documents after", RunFolder.number(step, "documents", "after"));
        step.path("rates").forEach(rate -> put(figures, rate.path("stage").asText("?") + " docs/s", RunFolder.rate(rate)));
        step.path("latencies").forEach(latency -> {
            String scenario = latency.path("scenario").asText("?");
            put(figures, scenario + " p50 ms", RunFolder.number(latency, "p50Ms"));
            put(figures, scenario + " p95 ms", RunFolder.number(latency, "p95Ms"));
            put(figures, scenario + " p99 ms", RunFolder.number(latency, "p99Ms"));
            put(figures, scenario + " errors", RunFolder.number(latency, "errors"));
        });
        JsonNode bytes = step.path("bytesPerDocument");
        if (bytes.size() > 0) {
            double total = 0;
            for (JsonNode value : bytes) {
                total += value.asDouble();
            }
            put(figures, "bytes a document (all stores)", total);
        }
        step.path("cpu").forEach(service -> {
            String name = service.path("service").asText("?");
            put(figures, name + " CPU ms/doc", RunFolder.number(service, "msPerDocument"));
            put(figures, name + " CPU ms/request", RunFolder.number(service, "msPerRequest"));
        });
        put(figures, "dead letters", RunFolder.number(step, "deadLetters", "total"));
        return figures;
    }

    private static void put(Map<String, Double> figures, String name, Double value) {
        if (value != null) {
            figures.put(name, value);
        }
    }
}
