package io.volumizer.campaigns.run;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/** A step's result in a few words, for its line on the terminal. */
final class StepSummary {

    private StepSummary() {
    }

    static String of(JsonNode result) {
        StringBuilder text = new StringBuilder();
        JsonNode documents = result.path("documents");
        if (documents.has("after")) {
            text.append(String.format(Locale.ROOT, ": %,d documents", documents.path("after").asLong()));
        }
        for (JsonNode rate : result.path("rates")) {
            text.append(String.format(Locale.ROOT, ", %s %,.0f docs/s", rate.path("stage").asText(),
                    rate.path("docsPerSecond").asDouble()));
        }
        for (JsonNode latency : result.path("latencies")) {
            text.append(String.format(Locale.ROOT, ", %s p95 %.1f ms (%d errors)", latency.path("scenario").asText(),
                    latency.path("p95Ms").asDouble(), latency.path("errors").asLong()));
        }
        JsonNode reconciliation = result.path("reconciliation");
        if (reconciliation.has("reconciled")) {
            text.append(reconciliation.path("reconciled").asBoolean() ? ", reconciled" : ", NOT RECONCILED");
        }
        return text.toString();
    }
}
