package io.volumizer.docs;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.volumizer.options.conventions.MetricNames;

/**
 * {@code docs/reference/metrics.md}: every metric name of Volumizer's own, from the one place they are defined
 * ({@link MetricNames}): the stages' metrics as Flink's Prometheus reporter exports them, the API's and the hold
 * controller's meters with the names Prometheus sees, and their labels. A name's description is its constant's
 * Javadoc in {@code MetricNames.java}, where it has one.
 */
final class MetricsReference {

    static final String SOURCE = "options/src/main/java/io/volumizer/options/conventions/MetricNames.java";
    private static final Pattern DOCUMENTED = Pattern.compile(
            "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public static final String (\\w+)", Pattern.DOTALL);

    private MetricsReference() {
    }

    static String page(Path root) throws IOException {
        Map<String, String> constants = constants();
        Map<String, String> javadoc = javadoc(Files.readString(root.resolve(SOURCE)), constants);
        StringBuilder out = new StringBuilder(ReferenceDocs.header("Metrics",
                "Volumizer's own metrics, from `" + SOURCE + "`, the one place their names are defined (the jobs, "
                        + "the API, the demo, the benchmarks, the tests and the chart's dashboard all read them there; "
                        + "`ChartConventionsTest` fails when the dashboard queries a name not defined there). What each "
                        + "one means and where to see them: [monitoring](../operations/monitoring.md). Flink's own "
                        + "metrics (records in and out, checkpoints, the Kafka source's `pendingRecords`, JVM) are "
                        + "beside them and not repeated."));
        Set<String> used = new java.util.HashSet<>();

        out.append("## Stage metrics\n\nEach stage counts its work in the `").append(MetricNames.GROUP)
                .append("` group of its operators, labelled `").append(MetricNames.STAGE_LABEL)
                .append("` with the stage; Flink's Prometheus reporter exports a metric as `")
                .append(MetricNames.PROMETHEUS_PREFIX).append("<metric>{").append(MetricNames.STAGE_LABEL)
                .append("=\"…\"}` (a dead-letter count also labelled `").append(MetricNames.REASON_LABEL)
                .append("`, the dead letter's reason class).\n\n| metric | exported as | constant | description |\n|---|---|---|---|\n");
        Set<String> stage = MetricNames.stagePrometheusNames();
        constants.forEach((constant, value) -> {
            if (stage.contains(MetricNames.prometheusName(value))) {
                used.add(constant);
                out.append("| ").append(Markdown.codeCell(value)).append(" | ").append(Markdown.codeCell(MetricNames.prometheusName(value)))
                        .append(" | ").append(Markdown.codeCell(constant)).append(" | ")
                        .append(Markdown.cell(javadoc.getOrDefault(constant, ""))).append(" |\n");
            }
        });
        out.append('\n');

        out.append("## The API's meters\n\nMicrometer meters of `bin/volumizer api`, served at `/metrics` on its "
                + "management port (`--metrics-port`); Prometheus sees them under the names on the right.\n\n");
        meters(out, constants, javadoc, used, "volumizer.api.", MetricNames.apiPrometheusNames());
        out.append("## The hold controller's meters\n\n`bin/volumizer throttle <step> --hold-p95 …` serves them at "
                + "`--hold-metrics-port`.\n\n");
        meters(out, constants, javadoc, used, "volumizer.hold.", MetricNames.holdPrometheusNames());

        out.append("## Labels\n\n| label | constant | description |\n|---|---|---|\n");
        constants.forEach((constant, value) -> {
            if (constant.endsWith("_LABEL")) {
                used.add(constant);
                out.append("| ").append(Markdown.codeCell(value)).append(" | ").append(Markdown.codeCell(constant)).append(" | ")
                        .append(Markdown.cell(javadoc.getOrDefault(constant, ""))).append(" |\n");
            }
        });
        out.append('\n');

        out.append("## Stages, group and prefixes\n\nThe other names `MetricNames` defines: the stages as their metrics "
                + "are labelled, the metric group, and the exported names' prefixes.\n\n| name | constant | description |\n|---|---|---|\n");
        constants.forEach((constant, value) -> {
            if (!used.contains(constant)) {
                out.append("| ").append(Markdown.codeCell(value)).append(" | ").append(Markdown.codeCell(constant)).append(" | ")
                        .append(Markdown.cell(javadoc.getOrDefault(constant, ""))).append(" |\n");
            }
        });
        return out.toString();
    }

    private static void meters(StringBuilder out, Map<String, String> constants, Map<String, String> javadoc, Set<String> used,
            String prefix, Set<String> exported) {
        out.append("| meter | Prometheus names | constant | description |\n|---|---|---|---|\n");
        constants.forEach((constant, value) -> {
            if (!value.startsWith(prefix)) {
                return;
            }
            used.add(constant);
            String base = value.replace('.', '_');
            String names = exported.stream().filter(name -> name.equals(base) || name.startsWith(base + "_"))
                    .sorted().map(Markdown::codeCell).collect(Collectors.joining(", "));
            out.append("| ").append(Markdown.codeCell(value)).append(" | ").append(names).append(" | ")
                    .append(Markdown.codeCell(constant)).append(" | ").append(Markdown.cell(javadoc.getOrDefault(constant, "")))
                    .append(" |\n");
        });
        out.append('\n');
    }

    /** Every public String constant of MetricNames, in declaration order. */
    static Map<String, String> constants() {
        Map<String, String> constants = new LinkedHashMap<>();
        for (Field field : MetricNames.class.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)
                    && field.getType() == String.class) {
                try {
                    constants.put(field.getName(), (String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return constants;
    }

    /** The Javadoc right above each constant, as plain text ({@code {@code x}} as x, {@code {@value #X}} as X's value). */
    static Map<String, String> javadoc(String source, Map<String, String> constants) {
        Map<String, String> docs = new LinkedHashMap<>();
        Matcher documented = DOCUMENTED.matcher(source);
        while (documented.find()) {
            String text = documented.group(1).replaceAll("(?m)^\\s*\\*", " ").replaceAll("\\s+", " ").strip();
            Matcher value = Pattern.compile("\\{@value #(\\w+)}").matcher(text);
            StringBuilder resolved = new StringBuilder();
            while (value.find()) {
                value.appendReplacement(resolved, Matcher.quoteReplacement(constants.getOrDefault(value.group(1), value.group(1))));
            }
            value.appendTail(resolved);
            text = resolved.toString().replaceAll("\\{@(?:code|link|linkplain) #?([^}]*)}", "$1");
            docs.put(documented.group(2), text);
        }
        return docs;
    }

    /** For the tests: the names a reader of the page looks for. */
    static List<String> names() {
        return new ArrayList<>(constants().values());
    }
}
