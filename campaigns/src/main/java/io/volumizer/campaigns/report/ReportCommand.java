package io.volumizer.campaigns.report;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.volumizer.ops.campaign.RunFolder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code bin/volumizer report}: a campaign run's page, alone or beside another run, checked in a browser on demand. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Writes one self-contained HTML page of a "
        + "campaign run (RUN/report.html): throughput, latency, cost and bytes a document against the repository's size, "
        + "the knee, the reconciliation and every step's figures. With --compare, two runs on the same charts and side "
        + "by side in the tables. With --check, opens the page in headless Chromium and fails unless it loads without a "
        + "console error and every chart drew data.",
        footer = {"%nExamples:", "  bin/volumizer report benchmarks/results/growth --check",
            "  bin/volumizer report RUN --compare OTHER_RUN", "  bin/volumizer report RUN/report.html --check"})
public final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RUN", description = "A campaign's run folder (with run.json), or a page written before "
            + "(.html) to --check only.")
    Path run;

    @Option(names = "--compare", paramLabel = "OTHER", description = "A second run folder, drawn beside RUN (B beside A).")
    Path other;

    @Option(names = "--output", paramLabel = "FILE", description = "The page to write (default: RUN/report.html, or RUN/compare-<OTHER's "
            + "run id>.html with --compare).")
    Path output;

    @Option(names = "--knee-threshold", defaultValue = "25", paramLabel = "PERCENT", description = "A rate that falls, or a "
            + "p95 that rises, by more than this from one size to the next is a knee (default: ${DEFAULT-VALUE} %%).")
    double kneeThresholdPercent;

    @Option(names = "--check", description = "Open the page in headless Chromium and fail on a console error, a chart "
            + "without data or anything fetched.")
    boolean check;

    @Option(names = "--screenshot", paramLabel = "PNG", description = "With --check, also save the whole page as an image.")
    Path screenshot;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path page;
        if (Files.isRegularFile(run) && run.toString().endsWith(".html")) {
            if (!check) {
                throw new IllegalArgumentException(run + " is a page already: give --check to check it, or a run folder");
            }
            page = run;
        } else {
            List<RunFolder> runs = new ArrayList<>(List.of(RunFolder.read(run)));
            if (other != null) {
                runs.add(RunFolder.read(other));
            }
            page = output != null ? output
                    : run.resolve(other == null ? "report.html" : "compare-" + runs.get(1).runId() + ".html");
            Files.writeString(page, ReportPage.render(runs, kneeThresholdPercent), StandardCharsets.UTF_8);
            spec.commandLine().getOut().println("report: " + page);
        }
        if (check) {
            List<String> problems = ReportCheck.problems(page, screenshot);
            if (!problems.isEmpty()) {
                spec.commandLine().getErr().println("report --check: " + page + " failed in Chromium:\n  "
                        + String.join("\n  ", problems));
                return 1;
            }
            spec.commandLine().getOut().println("report --check: " + page + " loaded in Chromium without an error; "
                    + "every chart drew data" + (screenshot != null ? "; screenshot " + screenshot : ""));
        }
        return 0;
    }
}
