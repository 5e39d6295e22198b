package io.volumizer.ops.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * A blueprint's Flink steps as values of the chart: each step starts at its planned slots, and the Flink Kubernetes
 * Operator's autoscaler moves it between one slot and {@link Planner#AUTOSCALER_HEADROOM} times that. With a live
 * repository the files' text gets a job of its own (as values-live.yaml deploys it), sized by what reading the text
 * costs, and the index job indexes the metadata alone.
 */
final class HelmValues {

    private HelmValues() {
    }

    static String of(Planner.Blueprint plan) {
        Planner.Request request = plan.request();
        boolean textApart = plan.fileTextSlots().count() > 0;
        Map<String, Object> steps = new LinkedHashMap<>();
        steps.put("import-and-index", Map.of("enabled", false));
        steps.put("import", step(plan.importSlots(), null));
        steps.put("index", step(textApart
                ? new Planner.Sized(Math.max(1, plan.indexSlots().count() - plan.fileTextSlots().count()), Map.of())
                : plan.indexSlots(), textApart ? List.of("--file-text", "none") : null));
        if (textApart) {
            steps.put("file-text", step(plan.fileTextSlots(), null));
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return String.format(Locale.ROOT, "# Written by bin/volumizer plan --helm-values: %,.0f documents, the import "
                + "at %,.0f docs/s, each step's slots from the calibration's CPU a document at %.0f%% CPU.%n"
                + "# helm upgrade --install volumizer helm/volumizer -f <your services> -f <this file>%n%s",
                request.documents(), request.importRate(), Planner.CPU_TARGET * 100, textApart
                        ? "# (The index's args are a list, which a later values file replaces whole: keep these.)\n" : "")
                + new Yaml(options).dump(Map.of("steps", steps));
    }

    private static Map<String, Object> step(Planner.Sized planned, List<String> args) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("enabled", true);
        step.put("parallelism", planned.count());
        if (args != null) {
            step.put("args", args);
        }
        Map<String, Object> autoscaler = new LinkedHashMap<>();
        autoscaler.put("enabled", true);
        autoscaler.put("minParallelism", 1);
        autoscaler.put("maxParallelism", (int) Planner.autoscalerCeiling(planned));
        step.put("autoscaler", autoscaler);
        return step;
    }
}
