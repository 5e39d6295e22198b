package io.volumizer.campaigns.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;

/** The page's charts, drawn from one run or two (the second one's lines dashed, each legend naming its run). */
final class ReportCharts {

    private static final String SIZE_AXIS = "documents in the repository";
    private static final List<Integer> PERCENTILES = List.of(50, 95, 99);

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
        for (String scenario : builder.distinct(step -> step.latencies().stream().map(StepResult.Latency::scenario))) {
            builder.sizeChart("Latency of " + scenario + " (p50, p95, p99)", "ms", run -> PERCENTILES.stream()
                    .flatMap(p -> SizeSeries.latencies(run.steps(), p).stream()
                            .filter(series -> series.name().equals(scenario))
                            .map(series -> new SizeSeries("p" + p, series.points())))
                    .toList());
        }
        for (String kind : builder.distinct(step -> kindIfAny(step, StepResult.Cpu::msPerDocument))) {
            builder.sizeChart("CPU ms a document, " + kind + ", per service", "CPU ms / document",
                    run -> cpu(run, kind, StepResult.Cpu::msPerDocument));
        }
        for (String kind : builder.distinct(step -> kindIfAny(step, StepResult.Cpu::msPerRequest))) {
            builder.sizeChart("CPU ms a request, " + kind + ", per service", "CPU ms / request",
                    run -> cpu(run, kind, StepResult.Cpu::msPerRequest));
        }
        builder.sizeChart("Bytes a document", "bytes / document", run -> SizeSeries.collect(run.steps(), step -> true,
                step -> {
                    StepResult.BytesPerDocument stored = Objects.requireNonNullElse(step.bytesPerDocument(),
                            new StepResult.BytesPerDocument(null, null, null));
                    Map<String, Double> bytes = new LinkedHashMap<>();
                    bytes.put("MongoDB data", stored.mongodbData());
                    bytes.put("MongoDB indexes", stored.mongodbIndexes());
                    bytes.put("search primary", stored.searchPrimary());
                    return bytes;
                }));
        builder.sizeChart("Request rate, measured against asked", "requests/s", run -> SizeSeries.collect(run.steps(),
                step -> true, step -> {
                    Map<String, Double> rates = new LinkedHashMap<>();
                    Double seconds = step.seconds();
                    step.latencies().forEach(latency -> {
                        Long requests = latency.requests();
                        rates.put(latency.scenario() + " asked", latency.ratePerSecond());
                        rates.put(latency.scenario() + " measured",
                                requests == null || seconds == null || seconds == 0 ? null : requests / seconds);
                    });
                    return rates;
                }));
        return List.copyOf(builder.charts);
    }

    /** The step's kind when a service's CPU has the figure. */
    private static Stream<String> kindIfAny(StepResult step, Function<StepResult.Cpu, Double> figure) {
        return step.cpu().stream().anyMatch(service -> figure.apply(service) != null) ? Stream.of(step.kind())
                : Stream.empty();
    }

    private static List<SizeSeries> cpu(RunFolder run, String kind, Function<StepResult.Cpu, Double> figure) {
        return SizeSeries.collect(run.steps(), step -> kind.equals(step.kind()), step -> {
            Map<String, Double> costs = new LinkedHashMap<>();
            step.cpu().forEach(service -> costs.put(service.service(), figure.apply(service)));
            return costs;
        });
    }

    /** A chart of docs/s over each step's time, one for each step that recorded a series, the runs' steps by id. */
    private void throughputOverTime() {
        Set<String> ids = new LinkedHashSet<>();
        runs.forEach(run -> run.steps().forEach(step -> {
            if (!step.series().isEmpty()) {
                ids.add(step.id());
            }
        }));
        for (String id : ids) {
            List<String> stages = new ArrayList<>();
            List<Chart.Line> lines = new ArrayList<>();
            for (int r = 0; r < runs.size(); r++) {
                for (StepResult step : runs.get(r).steps()) {
                    if (!Objects.equals(id, step.id())) {
                        continue;
                    }
                    for (StepResult.StageSeries series : step.series()) {
                        lines.add(line(series.stage(), stages, r, series.points().stream()
                                .map(point -> new double[] {point.seconds(), point.docsPerSecond()}).toList()));
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

    /** The distinct values each step gives (its latencies' scenarios, its kind...), in order. */
    private List<String> distinct(Function<StepResult, Stream<String>> values) {
        Set<String> distinct = new LinkedHashSet<>();
        runs.forEach(run -> run.steps().forEach(step -> values.apply(step).filter(Objects::nonNull)
                .forEach(distinct::add)));
        return List.copyOf(distinct);
    }
}
