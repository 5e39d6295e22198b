package io.volumizer.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine;
import io.volumizer.ops.client.ApiTarget;
import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.CheckOptions;
import io.volumizer.options.Failures;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code bin/volumizer loadtest}: runs one simulation with Gatling, then writes a one-screen summary (req/s,
 * p50/p95/p99, errors, per request and overall) next to the HTML report, as markdown and JSON; {@code compare}
 * sets a run beside a baseline run of the same simulation and gives the latency change per request.
 */
@Command(name = "loadtest", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = LoadTestRunner.Compare.class,
        description = "Runs a Gatling simulation against the API and summarizes it (run by bin/volumizer loadtest, in a "
                + "JVM of its own).",
        footer = {"%nExample:", "  bin/volumizer loadtest navigation --rate 40 --duration 60 --ramp 10"})
public final class LoadTestRunner implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final Map<String, String> SIMULATIONS = Map.of(
            "crud", "io.volumizer.loadtest.simulations.CrudSimulation",
            "navigation", "io.volumizer.loadtest.simulations.NavigationSimulation",
            "search", "io.volumizer.loadtest.simulations.SearchSimulation",
            "mixed", "io.volumizer.loadtest.simulations.MixedSimulation",
            "smoke", "io.volumizer.loadtest.simulations.SmokeSimulation");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", description = "Simulation: crud, navigation, search, mixed, smoke.")
    String simulation;

    @Mixin LoadShape shape = new LoadShape();
    @Mixin ApiTarget target = new ApiTarget();

    /** The run the demo imported: its settings compute the feeders' ids and terms. */
    @Mixin GeneratorOptions run = new GeneratorOptions();
    @Mixin CheckOptions check = new CheckOptions();

    @Option(names = "--refused-p95", defaultValue = "50",
            description = "Target: the 95th percentile of the answers the API refuses with 503, ms (default: ${DEFAULT-VALUE}).")
    long refusedP95;

    @Option(names = "--label", defaultValue = "", description = "Names this run in its summary file (e.g. baseline).")
    String label;

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.LOAD_TESTS);

    @Override
    public Integer call() throws Exception {
        String simulationClass = simulation == null ? null : SIMULATIONS.get(simulation);
        if (simulationClass == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown simulation '" + simulation
                    + "'; simulations: " + SIMULATIONS.keySet());
        }
        GeneratorSettings settings;
        try {
            shape.validate();
            settings = run.settings();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (check.only) {
            return 0;
        }
        System.setProperty("loadtest.api", target.api);
        System.setProperty("loadtest.oidcIssuer", target.issuer.issuer.toString());
        LoadSettings.setGenerator(settings);
        shape.publish();
        System.setProperty("loadtest.label", label);
        Path reports = results.folder.toAbsolutePath().resolve("reports");
        Files.createDirectories(reports);
        Instant started = Instant.now();
        int exit = io.gatling.app.Gatling$.MODULE$.fromArgs(new String[] {"--simulation", simulationClass,
            "--results-folder", reports.toString(), "--launcher", "volumizer", "--run-description", label});
        Report report = Report.read(Report.latest(reports, simulationClass));
        String name = simulation + (label.isEmpty() ? "" : "-" + label);
        ObjectNode summary = summary(report, started, exit == 0);
        Files.writeString(results.folder.resolve(name + ".json"), JSON.writeValueAsString(summary));
        String markdown = markdown(name, report, summary);
        Files.writeString(results.folder.resolve(name + ".md"), markdown);
        System.out.println();
        System.out.println(markdown);
        System.out.println("summary: " + results.folder.resolve(name + ".md") + "  report: " + report.folder().resolve("index.html"));
        return exit;
    }

    private ObjectNode summary(Report report, Instant started, boolean assertionsPassed) {
        ObjectNode summary = JSON.createObjectNode().put("simulation", simulation).put("label", label)
                .put("started", started.toString()).put("usersPerSecond", shape.rate).put("durationSeconds", shape.duration)
                .put("rampSeconds", shape.ramp).put("assertionsPassed", assertionsPassed)
                .put("report", report.folder().resolve("index.html").toString());
        ObjectNode requests = summary.putObject("requests");
        report.requests().forEach((request, stats) -> requests.set(request, JSON.valueToTree(stats)));
        Map<String, Admissions.Split> splits = Admissions.splits();
        if (!splits.isEmpty()) {
            ObjectNode admission = summary.putObject("admission");
            splits.forEach((request, split) -> admission.set(request, JSON.valueToTree(split)));
            Admissions.Split all = splits.get(Report.ALL);
            long otherFailures = report.all().failed();
            ObjectNode targets = summary.putObject("overloadTargets").put("admittedP95Millis", all.admittedP95());
            if (shape.p95 != null) {
                targets.put("admittedP95Target", shape.p95);
            }
            targets.put("refusedP95Millis", all.refusedP95()).put("refusedP95Target", refusedP95)
                    .put("failedOtherThan503", otherFailures)
                    .put("met", (shape.p95 == null || all.admittedP95() < shape.p95) && all.refusedP95() < refusedP95 && otherFailures == 0);
        }
        return summary;
    }

    private static String markdown(String name, Report report, ObjectNode summary) {
        StringBuilder text = new StringBuilder();
        text.append("## Load test: ").append(name).append("\n\n")
                .append(String.format(Locale.ROOT, "%s users/s for %d s after a %d s ramp; assertions %s; started %s.%n%n",
                        summary.path("usersPerSecond").asText(), summary.path("durationSeconds").asLong(),
                        summary.path("rampSeconds").asLong(), summary.path("assertionsPassed").asBoolean() ? "passed" : "FAILED",
                        summary.path("started").asText()))
                .append("| request | count | errors | req/s | p50 ms | p95 ms | p99 ms | max ms |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        report.requests().forEach((request, s) -> text.append(String.format(Locale.ROOT,
                "| %s | %d | %d (%.2f%%) | %.1f | %d | %d | %d | %d |%n", request.equals(Report.ALL) ? "**all**" : request,
                s.count(), s.failed(), s.failedPercent(), s.perSecond(), s.p50(), s.p95(), s.p99(), s.max())));
        JsonNode admission = summary.path("admission");
        if (!admission.isMissingNode()) {
            text.append("\nAdmitted and refused apart (a refusal is a 503 with Retry-After from the API's admission "
                    + "control; \"errors\" above are every other failure):\n\n"
                    + "| request | admitted | p50 ms | p95 ms | p99 ms | refused (503) | p50 ms | p95 ms | p99 ms |\n"
                    + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            admission.fields().forEachRemaining(entry -> {
                JsonNode a = entry.getValue();
                text.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |%n",
                        entry.getKey().equals(Report.ALL) ? "**all**" : entry.getKey(), a.path("admitted").asLong(),
                        a.path("admittedP50").asLong(), a.path("admittedP95").asLong(), a.path("admittedP99").asLong(),
                        a.path("refused").asLong(), a.path("refusedP50").asLong(), a.path("refusedP95").asLong(),
                        a.path("refusedP99").asLong()));
            });
            JsonNode targets = summary.path("overloadTargets");
            text.append(String.format(Locale.ROOT, "%nTargets: admitted p95 %d ms (%s), refused p95 %d ms (< %d), "
                    + "failed otherwise %d (0): %s.%n", targets.path("admittedP95Millis").asLong(),
                    targets.has("admittedP95Target") ? "< " + targets.path("admittedP95Target").asLong() : "no target given",
                    targets.path("refusedP95Millis").asLong(),
                    targets.path("refusedP95Target").asLong(), targets.path("failedOtherThan503").asLong(),
                    targets.path("met").asBoolean() ? "met" : "NOT met"));
        }
        return text.toString();
    }

    /** Sets a run beside its baseline: the change of each request's p95, and of their count-weighted mean. */
    @Command(name = "compare", description = "Compare two summaries of one simulation (e.g. mixed-baseline and "
            + "mixed-importing); bin/volumizer loadtest mixed and reindex run it on their two runs.",
            footer = {"%nExample:", "  bin/volumizer loadtest mixed"})
    static final class Compare implements Callable<Integer> {

        @Parameters(index = "0", description = "Summary JSON of the baseline run.")
        Path baseline;

        @Parameters(index = "1", description = "Summary JSON of the run to compare.")
        Path run;

        @Option(names = "--requests", split = ",", description = "Requests the headline figure is about (default: all but 'All Requests').")
        List<String> requests;

        @Option(names = "--max-increase-percent", defaultValue = "20", description = "Target: largest rise of the headline p95, %% (default: ${DEFAULT-VALUE}).")
        double maxIncrease;

        @Option(names = "--out", required = true, description = "Markdown file to write.")
        Path out;

        @Override
        public Integer call() throws IOException {
            var before = JSON.readTree(baseline.toFile()).path("requests");
            var after = JSON.readTree(run.toFile()).path("requests");
            StringBuilder text = new StringBuilder("## ").append(run.getFileName()).append(" against ")
                    .append(baseline.getFileName()).append("\n\n| request | p95 before ms | p95 after ms | change | req/s before | req/s after |\n|---|---:|---:|---:|---:|---:|\n");
            double weightedBefore = 0;
            double weightedAfter = 0;
            long weight = 0;
            for (var names = before.fieldNames(); names.hasNext(); ) {
                String request = names.next();
                if (!after.has(request)) {
                    continue;
                }
                long p95Before = before.path(request).path("p95").asLong();
                long p95After = after.path(request).path("p95").asLong();
                text.append(String.format(Locale.ROOT, "| %s | %d | %d | %+.0f%% | %.1f | %.1f |%n", request, p95Before,
                        p95After, change(p95Before, p95After), before.path(request).path("perSecond").asDouble(),
                        after.path(request).path("perSecond").asDouble()));
                boolean counted = requests == null ? !request.equals(Report.ALL) : requests.contains(request);
                if (counted) {
                    long count = after.path(request).path("count").asLong();
                    weightedBefore += p95Before * (double) count;
                    weightedAfter += p95After * (double) count;
                    weight += count;
                }
            }
            double headline = weight == 0 ? 0 : change(weightedBefore / weight, weightedAfter / weight);
            text.append(String.format(Locale.ROOT, "%nCount-weighted mean p95 of %s: %.1f ms before, %.1f ms after: %+.1f%% "
                    + "(target: under +%.0f%%: %s).%n", requests == null ? "all requests" : String.join(", ", requests),
                    weight == 0 ? 0 : weightedBefore / weight, weight == 0 ? 0 : weightedAfter / weight, headline,
                    maxIncrease, headline < maxIncrease ? "met" : "not met"));
            Files.writeString(out, text);
            System.out.println(text);
            return 0;
        }

        private static double change(double before, double after) {
            return before == 0 ? 0 : 100.0 * (after - before) / before;
        }
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        // The session passes the demo's settings first; what the user adds after them wins.
        return new CommandLine(new LoadTestRunner()).setOverwrittenOptionsAllowed(true)
                .setExecutionExceptionHandler(Failures::oneLine);
    }
}
