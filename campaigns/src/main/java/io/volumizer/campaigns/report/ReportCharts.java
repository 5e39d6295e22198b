package io.volumizer.campaigns.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

/** The page's charts, drawn from one run or two (the second one's lines dashed, each legend naming its run). */
final class ReportCharts {

    private static final String SIZE_AXIS = "documents in the repository";
    private static final List<String> PERCENTILES = List.of("p50", "p95", "p99");

    private final List<RunFolder> runs;
    private final List<Chart> charts = new ArrayList<>();

    private ReportCharts(List<RunFolder> runs) {
        this.runs = runs;
    }

    /** Every chart that has data, in the page's order. */
    static List<Chart> of(List<RunFolder> runs) {
        ReportCharts builder = new ReportCharts(runs);
        builder.throughputOverTime();
        builder.sizeChart("Sustained rate against repository size", "docs/s", run -> SizeSeries.rates(run.steps()));
        for (String scenario : builder.distinct(step -> step.path("latencies"), "scenario")) {
            builder.sizeChart("Latency of " + scenario + " (p50, p95, p99)", "ms", run -> PERCENTILES.stream()
                    .flatMap(p -> SizeSeries.latencies(run.steps(), p + "Ms").stream()
                            .filter(series -> series.name().equals(scenario))
                            .map(series -> new SizeSeries(p, series.points())))
                    .toList());
        }
        for (String kind : builder.distinct(step -> step.path("cpu").findPath("msPerDocument").isNumber()
                ? List.of(step) : List.of(), "kind")) {
            builder.sizeChart("CPU ms a document, " + kind + ", per service", "CPU ms / document",
                    run -> cpu(run, kind, "msPerDocument"));
        }
        for (String kind : builder.distinct(step -> step.path("cpu").findPath("msPerRequest").isNumber()
                ? List.of(step) : List.of(), "kind")) {
            builder.sizeChart("CPU ms a request, " + kind + ", per service", "CPU ms / request",
                    run -> cpu(run, kind, "msPerRequest"));
        }
        builder.sizeChart("Bytes a document", "bytes / document", run -> SizeSeries.collect(run.steps(), step -> true,
                step -> {
                    Map<String, Double> bytes = new LinkedHashMap<>();
                    bytes.put("MongoDB data", RunFolder.number(step, "bytesPerDocument", "mongodbData"));
                    bytes.put("MongoDB indexes", RunFolder.number(step, "bytesPerDocument", "mongodbIndexes"));
                    bytes.put("search primary", RunFolder.number(step, "bytesPerDocument", "searchPrimary"));
                    return bytes;
                }));
        builder.sizeChart("Request rate, measured against asked", "requests/s", run -> SizeSeries.collect(run.steps(),
                step -> true, step -> {
                    Map<String, Double> rates = new LinkedHashMap<>();
                    Double seconds = RunFolder.number(step, "seconds");
                    step.path("latencies").forEach(latency -> {
                        String scenario = latency.path("scenario").asText("?");
                        Double requests = RunFolder.number(latency, "requests");
                        rates.put(scenario + " asked", RunFolder.number(latency, "ratePerSecond"));
                        rates.put(scenario + " measured",
                                requests == null || seconds == null || seconds == 0 ? null : requests / seconds);
                    });
                    return rates;
                }));
        return List.copyOf(builder.charts);
    }

    private static List<SizeSeries> cpu(RunFolder run, String kind, String figure) {
        return SizeSeries.collect(run.steps(), step -> kind.equals(step.path("kind").asText()), step -> {
            Map<String, Double> costs = new LinkedHashMap<>();
            step.path("cpu").forEach(service ->
                    costs.put(service.path("service").asText("?"), RunFolder.number(service, figure)));
            return costs;
        });
    }

    /** A chart of docs/s over each step's time, one for each step that recorded a series, the runs' steps by id. */
    private void throughputOverTime() {
        Set<String> ids = new LinkedHashSet<>();
        runs.forEach(run -> run.steps().forEach(step -> {
            if (step.path("series").size() > 0) {
                ids.add(step.path("id").asText());
            }
        }));
        for (String id : ids) {
            List<String> stages = new ArrayList<>();
            List<Chart.Line> lines = new ArrayList<>();
            for (int r = 0; r < runs.size(); r++) {
                for (JsonNode step : runs.get(r).steps()) {
                    if (!id.equals(step.path("id").asText())) {
                        continue;
                    }
                    for (JsonNode series : step.path("series")) {
                        List<double[]> points = new ArrayList<>();
                        series.path("points").forEach(p -> points.add(new double[] {p.path(0).asDouble(), p.path(1).asDouble()}));
                        lines.add(line(series.path("stage").asText("?"), stages, r, points));
                    }
                }
            }
            add("Throughput over time, " + id, "seconds since the step began", "docs/s", false, lines);
        }
    }

    /** A chart against the repository's size: each run's series, one line each. */
    private void sizeChart(String title, String yLabel, Function<RunFolder, List<SizeSeries>> figures) {
        List<String> names = new ArrayList<>();
        List<Chart.Line> lines = new ArrayList<>();
        for (int r = 0; r < runs.size(); r++) {
            for (SizeSeries series : figures.apply(runs.get(r))) {
                lines.add(line(series.name(), names, r, series.points().stream()
                        .map(point -> new double[] {point.documents(), point.value()}).toList()));
            }
        }
        add(title, SIZE_AXIS, yLabel, true, lines);
    }

    /** A line: its colour is its figure's (the same in both runs), its legend names the run when two are drawn. */
    private Chart.Line line(String figure, List<String> figures, int run, List<double[]> points) {
        if (!figures.contains(figure)) {
            figures.add(figure);
        }
        String label = runs.size() > 1 ? figure + " · " + (run == 0 ? "A " : "B ") + runs.get(run).runId() : figure;
        return new Chart.Line(label, figures.indexOf(figure), run > 0, points);
    }

    private void add(String title, String xLabel, String yLabel, boolean sizes, List<Chart.Line> lines) {
        Chart chart = new Chart("chart-" + (charts.size() + 1), title, xLabel, yLabel, sizes, lines);
        if (chart.hasData()) {
            charts.add(chart);
        }
    }

    /** The distinct values of a field over the nodes each step gives (its latencies, itself...), in order. */
    private List<String> distinct(Function<JsonNode, Iterable<JsonNode>> nodes, String field) {
        Set<String> values = new LinkedHashSet<>();
        runs.forEach(run -> run.steps().forEach(step -> nodes.apply(step).forEach(node -> {
            if (node.hasNonNull(field)) {
                values.add(node.path(field).asText());
            }
        })));
        return List.copyOf(values);
    }
}
