package io.volumizer.campaigns.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.ops.campaign.CampaignRun;
import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;

/**
 * The report: one self-contained HTML page of one run, or of two side by side. uPlot's script and style are inlined
 * and the figures embedded as JSON, so the page opens from a file with nothing fetched; the tables and the knee are
 * written here, the page's script only draws the charts and marks each with the points it drew.
 */
final class ReportPage {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPLOT = "META-INF/resources/webjars/uplot/";

    private final List<RunFolder> runs;
    private final double kneeThresholdPercent;
    private final List<Chart> charts;
    /** Each run's knees, in the runs' order. */
    private final List<List<Knee>> knees;
    private final StringBuilder html = new StringBuilder();

    ReportPage(List<RunFolder> runs, double kneeThresholdPercent, List<Chart> charts) {
        this.runs = runs;
        this.kneeThresholdPercent = kneeThresholdPercent;
        this.charts = charts;
        this.knees = runs.stream().map(run -> Knee.of(run, kneeThresholdPercent)).toList();
    }

    /** The page of a run, or of a run (A) and another (B) side by side. */
    static String render(List<RunFolder> runs, double kneeThresholdPercent) {
        return new ReportPage(runs, kneeThresholdPercent, ReportCharts.of(runs)).render();
    }

    /** The figures the page embeds and draws: the runs, their knees and the charts' aligned data. */
    ObjectNode data() {
        ObjectNode data = JSON.createObjectNode().put("kneeThresholdPercent", kneeThresholdPercent);
        ArrayNode runList = data.putArray("runs");
        for (int r = 0; r < runs.size(); r++) {
            RunFolder run = runs.get(r);
            ObjectNode entry = runList.addObject().put("campaign", run.campaign()).put("runId", run.runId())
                    .put("status", run.run().status());
            knees.get(r).forEach(knee -> entry.withArray("knees").add(knee.sentence()));
        }
        ArrayNode chartList = data.putArray("charts");
        charts.forEach(chart -> chartList.add(chart.toJson()));
        return data;
    }

    String render() {
        String title = runs.size() == 1 ? "Campaign " + runs.get(0).label()
                : "Campaign " + runs.get(0).label() + " (A) against " + runs.get(1).label() + " (B)";
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(escape(title)).append("</title>\n<script>")
                .append(resource("errors.js")).append("</script>\n<style>")
                .append(uplot("dist/uPlot.min.css")).append('\n').append(resource("report.css"))
                .append("</style></head>\n<body>\n<header><h1>").append(escape(title)).append("</h1></header>\n");
        runFacts();
        knees();
        html.append("<section><h2>As the repository grows</h2><p class=\"hint\">Sizes on a logarithmic axis, a tick at "
                + "each size run; ").append(runs.size() > 1 ? "run B's lines dashed; " : "")
                .append("click a legend entry to hide its line.</p>");
        chartGrid(true);
        html.append("<h2 class=\"group\">Throughput over time, step by step</h2>");
        chartGrid(false);
        html.append("</section>\n");
        reconciliation();
        steps();
        html.append("<footer>Written by <code>bin/volumizer report</code>; charts by uPlot ").append(escape(uplotVersion()))
                .append(", inlined.</footer>\n<script type=\"application/json\" id=\"report-data\">")
                .append(data().toString().replace("</", "<\\/")).append("</script>\n<script>")
                .append(uplot("dist/uPlot.iife.min.js")).append("</script>\n<script>").append(resource("report.js"))
                .append("</script>\n</body></html>\n");
        return html.toString();
    }

    private void chartGrid(boolean againstSize) {
        html.append("<div class=\"charts\">");
        charts.stream().filter(chart -> chart.sizes() == againstSize)
                .forEach(chart -> html.append("<div class=\"chart\" id=\"").append(chart.id()).append("\"></div>"));
        html.append("</div>");
    }

    private void runFacts() {
        html.append("<section class=\"side-by-side\">");
        for (int r = 0; r < runs.size(); r++) {
            CampaignRun run = runs.get(r).run();
            String status = Objects.requireNonNullElse(run.status(), "unknown");
            html.append("<div class=\"card\"><h2>").append(runs.size() > 1 ? (r == 0 ? "A: " : "B: ") : "Run ")
                    .append(escape(runs.get(r).runId())).append(" <span class=\"status ").append(escape(status))
                    .append("\">").append(escape(status)).append("</span></h2>");
            if (run.stoppedBecause() != null) {
                html.append("<p class=\"stopped\"><b>Stopped early:</b> ").append(escape(run.stoppedBecause()))
                        .append("</p>");
            }
            html.append("<div class=\"columns\"><table class=\"facts\">");
            fact("Campaign", runs.get(r).campaign() + (run.file() != null ? " (" + run.file() + ")" : ""));
            fact("Started", run.started());
            fact("Ended", run.ended());
            fact("Duration", duration(run.started(), run.ended()));
            fact("Steps finished", String.valueOf(runs.get(r).steps().size()));
            CampaignRun.RunMachine machine = run.machine();
            if (machine != null) {
                fact("Machine", Format.number(machine.cores()) + " cores, " + Format.number(machine.memoryGiB())
                        + " GiB memory, " + Format.number(machine.diskFreeGiB()) + " GiB disk free at the start");
                fact("CPU", machine.cpu());
                fact("OS", machine.os());
            }
            html.append("</table><table class=\"facts\">");
            run.versions().forEach(this::fact);
            html.append("</table></div></div>");
        }
        html.append("</section>\n");
    }

    private void fact(String name, String value) {
        if (value != null) {
            html.append("<tr><th>").append(escape(name)).append("</th><td>").append(escape(value)).append("</td></tr>");
        }
    }

    private void knees() {
        html.append("<section id=\"knee\" class=\"knee\"><h2>The knee</h2><p class=\"rule\"><b>Rule:</b> ")
                .append(escape(Knee.rule(kneeThresholdPercent))).append("</p>");
        for (int r = 0; r < runs.size(); r++) {
            String who = runs.size() > 1 ? (r == 0 ? "A: " : "B: ") : "";
            if (knees.get(r).isEmpty()) {
                html.append("<p class=\"no-knee\">").append(who).append(escape(Knee.none(runs.get(r)))).append("</p>");
            } else {
                html.append("<ul>");
                knees.get(r).forEach(knee -> html.append("<li>").append(who).append("<b>").append(escape(knee.sentence()))
                        .append("</b></li>"));
                html.append("</ul>");
            }
        }
        html.append("</section>\n");
    }

    private void reconciliation() {
        html.append("<section><h2>Reconciliation</h2><p class=\"hint\">Documents expected against those in MongoDB, "
                + "in the search engine and in the dead-letter topic, for every step that checked them.</p>"
                + "<div class=\"side-by-side\">");
        for (int r = 0; r < runs.size(); r++) {
            html.append("<div>").append(runs.size() > 1 ? "<h3>" + (r == 0 ? "A: " : "B: ") + escape(runs.get(r).runId())
                    + "</h3>" : "").append("<table><tr><th>step</th><th>expected</th><th>MongoDB</th><th>search</th>"
                    + "<th>dead letters</th><th>reconciled</th></tr>");
            for (StepResult step : runs.get(r).steps()) {
                StepResult.Reconciliation check = step.reconciliation();
                if (check == null) {
                    continue;
                }
                boolean reconciled = Boolean.TRUE.equals(check.reconciled());
                html.append("<tr><td>").append(escape(step.id())).append("</td>");
                for (Long count : Arrays.asList(check.expected(), check.mongodb(), check.search(), check.deadLetters())) {
                    html.append("<td class=\"num\">").append(Format.number(count)).append("</td>");
                }
                html.append("<td class=\"").append(reconciled ? "ok\">✓ yes" : "bad\">✗ no").append("</td></tr>");
            }
            html.append("</table></div>");
        }
        html.append("</div></section>\n");
    }

    private void steps() {
        html.append("<section><h2>Every step's figures</h2>");
        if (runs.size() == 1) {
            html.append("<table class=\"steps\"><tr><th>#</th><th>step</th><th>kind</th><th>size</th><th>figures</th></tr>");
            for (StepResult step : runs.get(0).steps()) {
                html.append("<tr><td class=\"num\">").append(Objects.toString(step.position(), "")).append("</td><td>")
                        .append(escape(step.id())).append("</td><td>").append(escape(step.kind()))
                        .append("</td><td>").append(escape(step.sizeLabel())).append("</td><td>");
                StepFigures.of(step).forEach((name, value) -> html.append("<span class=\"figure\">").append(escape(name))
                        .append(" <b>").append(Format.number(value)).append("</b></span> "));
                step.notes().forEach(note -> html.append("<div class=\"note\">").append(escape(note)).append("</div>"));
                html.append("</td></tr>");
            }
        } else {
            html.append("<p class=\"hint\">The steps of both runs by id; B/A is run B's figure over run A's.</p><table class=\"steps\">"
                    + "<tr><th>step</th><th>figure</th><th>A</th><th>B</th><th>B/A</th></tr>");
            Set<String> ids = new LinkedHashSet<>();
            runs.forEach(run -> run.steps().forEach(step -> ids.add(step.id())));
            for (String id : ids) {
                Map<String, Double> a = figures(runs.get(0), id);
                Map<String, Double> b = figures(runs.get(1), id);
                Set<String> names = new LinkedHashSet<>(a.keySet());
                names.addAll(b.keySet());
                boolean first = true;
                for (String name : names) {
                    html.append("<tr").append(first ? " class=\"first\"" : "").append("><td>").append(first ? escape(id) : "")
                            .append("</td><td>").append(escape(name)).append("</td><td class=\"num\">")
                            .append(Format.number(a.get(name))).append("</td><td class=\"num\">").append(Format.number(b.get(name)))
                            .append("</td><td class=\"num\">").append(Format.ratio(a.get(name), b.get(name))).append("</td></tr>");
                    first = false;
                }
            }
        }
        html.append("</table></section>\n");
    }

    /** The figures of the run's step {@code id}, none when the run has no such step. */
    private static Map<String, Double> figures(RunFolder run, String id) {
        return run.steps().stream().filter(step -> Objects.equals(id, step.id())).findFirst().map(StepFigures::of)
                .orElse(Map.of());
    }

    private static String duration(String started, String ended) {
        if (started == null || ended == null) {
            return null;
        }
        try {
            Duration duration = Duration.between(Instant.parse(started), Instant.parse(ended));
            return String.format("%d h %02d min %02d s", duration.toHours(), duration.toMinutesPart(), duration.toSecondsPart());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) {
        return read(ReportPage.class.getResourceAsStream(name), name);
    }

    /** A file of the uPlot webjar, at the version the build put on the class path. */
    private static String uplot(String file) {
        return read(ReportPage.class.getClassLoader().getResourceAsStream(UPLOT + uplotVersion() + "/" + file), file);
    }

    private static String uplotVersion() {
        Properties pom = new Properties();
        try (InputStream in = ReportPage.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("uPlot's webjar is not on the class path");
            }
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version");
    }

    private static String read(InputStream in, String name) {
        if (in == null) {
            throw new IllegalStateException(name + " is not on the class path");
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
