package io.volumizer.campaigns.run;

import java.util.Locale;
import java.util.Objects;

import io.volumizer.ops.campaign.StepResult;

/** A step's result in a few words, for its line on the terminal. */
final class StepSummary {

    private StepSummary() {
    }

    static String of(StepResult result) {
        StringBuilder text = new StringBuilder();
        if (result.documents() != null && result.documents().after() != null) {
            text.append(String.format(Locale.ROOT, ": %,d documents", result.documents().after()));
        }
        result.rates().stream().filter(rate -> rate.docsPerSecond() != null).forEach(rate -> text.append(
                String.format(Locale.ROOT, ", %s %,.0f docs/s", rate.stage(), rate.docsPerSecond())));
        result.latencies().forEach(latency -> text.append(String.format(Locale.ROOT, ", %s p95 %.1f ms (%d errors)",
                latency.scenario(), Objects.requireNonNullElse(latency.p95Ms(), 0.0),
                Objects.requireNonNullElse(latency.errors(), 0L))));
        if (result.reconciliation() != null && result.reconciliation().reconciled() != null) {
            text.append(result.reconciliation().reconciled() ? ", reconciled" : ", NOT RECONCILED");
        }
        return text.toString();
    }
}
