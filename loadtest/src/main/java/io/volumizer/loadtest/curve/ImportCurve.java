package io.volumizer.loadtest.curve;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongUnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.ops.throttle.hold.AimdController;
import io.volumizer.ops.throttle.hold.HoldLoop;
import io.volumizer.ops.throttle.hold.HoldMetrics;
import io.volumizer.ops.throttle.hold.HoldOptions;
import io.volumizer.options.steps.Step;

/**
 * {@code bin/volumizer loadtest mixed --import-rates 0,100,250,500,1000,max,hold}: the users' latency against the
 * import's rate. A backlog is generated while the import is paused, so that every pass reads documents already on
 * the topic and only the import's throttle sets its pace; after a warm-up run, each pass sets the import's throttle
 * (or starts the hold controller) and runs the users, while the API's histogram is read every window. The table,
 * its JSON and the chart go to the results folder as {@code mixed-curve.*}.
 */
public final class ImportCurve {

    /** The curve's files in the results folder. */
    public static final String NAME = "mixed-curve";
    /** The step the curve throttles: the import that indexes on the fly, as the demo runs it. */
    public static final Step IMPORT = Step.IMPORT_AND_INDEX;
    private static final String CHANGED_BY = "loadtest curve";
    private static final Duration WINDOW = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the load-test session does for the curve: its jobs and its runs of the mixed simulation. */
    public interface Session {
        /** Starts the import, reading the demo's consumer group, or the backlog's generate job; its job id. */
        String start(Step step, List<String> arguments) throws Exception;

        /** Waits until a bounded job finished; it is no longer stopped at the end. */
        void awaitFinished(String jobId) throws Exception;

        /** Runs the mixed simulation without keeping its results. */
        void warmUp() throws Exception;

        /** Runs the mixed simulation, its summary named after {@code label}, with {@code options} last. */
        void run(String label, List<String> options) throws Exception;
    }

    private final Session session;
    private final List<ImportRate> rates;
    private final ThrottleSettings throttles;
    private final HoldOptions hold;
    private final Duration target;
    private final Path results;
    private final List<String> reads;
    private final AimdController controller;
    /** The hold pass's controller while it runs: stopped before the throttle is lifted. */
    private volatile Thread holding;

    /**
     * @param target the p95 the hold pass holds and the table compares with
     * @param reads  the requests of the mixed simulation whose Gatling p95 the table gives (count-weighted)
     */
    public ImportCurve(Session session, List<ImportRate> rates, ThrottleSettings throttles, HoldOptions hold,
            Duration target, Path results, List<String> reads) {
        this.session = session;
        this.rates = rates;
        this.throttles = throttles;
        this.hold = hold;
        this.target = target;
        this.results = results;
        this.reads = reads;
        this.controller = hold.controller(target); // its settings checked before anything runs
        controller.firstLimit(hold.start);
    }

    /**
     * Generates the backlog ({@code backlog}: the generate job's arguments), then runs every pass.
     *
     * @param holdDuration the hold pass's seconds at the full rate
     * @return 0, or 1 when a pass ran out of backlog (its figures are in the table, not judged)
     */
    public int run(List<String> importArguments, List<String> backlog, long holdDuration, String header) throws Exception {
        throttles.change(IMPORT.id(), new ThrottleSettings.Change.Paused(true), CHANGED_BY);
        // On Ctrl-C too, the import is left as it was found: unthrottled.
        Thread lift = new Thread(this::lift, "lift the curve's throttle");
        Runtime.getRuntime().addShutdownHook(lift);
        try {
            Set<String> importJob = Set.of(session.start(IMPORT, importArguments));
            String generate = session.start(Step.GENERATE, backlog);
            session.awaitFinished(generate);
            System.out.println("volumizer: backlog generated; warming up");
            session.warmUp();
            List<CurveReport.Point> points = new ArrayList<>();
            for (ImportRate rate : rates) {
                points.add(pass(rate, holdDuration, importJob));
            }
            CurveReport report = new CurveReport(NAME, hold.route.id(), target.toNanos() / 1e9, points);
            report.write(results, header);
            System.out.println(report.markdown(header));
            if (!report.dry().isEmpty()) {
                System.err.println("volumizer: the import ran out of backlog during a pass: those passes measured "
                        + "their input, not the import; run the curve again with a larger --backlog-ceiling (or "
                        + "--backlog-customers, when given)");
                return 1;
            }
            return 0;
        } finally {
            Runtime.getRuntime().removeShutdownHook(lift);
            lift();
        }
    }

    private void lift() {
        stopHolding();
        try {
            resumeAt(0);
        } catch (Exception e) {
            System.err.println("volumizer: the " + IMPORT.id() + " throttle is still set (bin/volumizer throttle "
                    + IMPORT.id() + " off, then resume): " + e.getMessage());
        }
    }

    private CurveReport.Point pass(ImportRate rate, long holdDuration, Set<String> importJob) throws Exception {
        HoldLoop.Scrape api = () -> PrometheusScrape.of(hold.apiMetrics).samples();
        HoldLoop.Scrape jobs = () -> PrometheusScrape.of(hold.flinkMetrics).samples();
        List<String> options = new ArrayList<>();
        HoldMetrics metrics = null;
        if (!rate.reads()) {
            throttles.change(IMPORT.id(), new ThrottleSettings.Change.Paused(true), CHANGED_BY);
        } else if (rate instanceof ImportRate.Fixed fixed) {
            resumeAt(fixed.docsPerSecond());
        } else if (rate instanceof ImportRate.Max) {
            resumeAt(0);
        } else {
            options.addAll(List.of("--duration", Long.toString(holdDuration)));
        }
        System.out.println("volumizer: " + Instant.now() + " pass at import rate " + rate.label());
        PassRecorder recorder = new PassRecorder(api, jobs, hold.route, importJob, rate.reads(), WINDOW,
                hold.minRequests);
        PassRecorder.Measured measured;
        try {
            if (rate instanceof ImportRate.Hold) {
                metrics = new HoldMetrics(target.toNanos() / 1e9).serve(hold.metricsPort);
                HoldLoop loop = new HoldLoop(api, jobs, () -> importJob, hold.route, controller, limit ->
                        throttles.change(IMPORT.id(), new ThrottleSettings.Change.Limit(limit), CHANGED_BY), metrics,
                        System.out, System::nanoTime);
                loop.start(hold.start);
                throttles.change(IMPORT.id(), new ThrottleSettings.Change.Paused(false), CHANGED_BY);
                holding = new Thread(() -> {
                    try {
                        loop.run(hold.interval);
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        System.err.println("volumizer: the hold controller stopped: " + e);
                    }
                }, "hold");
                holding.start();
            }
            recorder.start();
            session.run("import-" + rate.label(), options);
            measured = recorder.finish();
        } finally {
            recorder.close();
            stopHolding();
            if (metrics != null) {
                metrics.close();
            }
        }
        JsonNode requests = JSON.readTree(results.resolve("mixed-import-" + rate.label() + ".json").toFile()).path("requests");
        System.out.printf(Locale.ROOT, "volumizer: import rate %s: %.0f docs/s achieved, %s p95 %.1f ms%n", rate.label(),
                measured.achievedDocsPerSecond(), hold.route.id(), measured.p95Seconds() * 1000);
        return new CurveReport.Point(rate, measured, weightedP95(requests), requests.path("All Requests").path("failed").asLong());
    }

    private void stopHolding() {
        Thread controllerThread = holding;
        if (controllerThread != null) {
            controllerThread.interrupt();
            try {
                controllerThread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            holding = null;
        }
    }

    private void resumeAt(double limit) throws Exception {
        throttles.change(IMPORT.id(), new ThrottleSettings.Change.Setting(limit, false), CHANGED_BY);
    }

    /** The count-weighted mean p95 of the reads, as the mixed comparison computes it. */
    private double weightedP95(JsonNode requests) {
        double weighted = 0;
        long count = 0;
        for (String read : reads) {
            JsonNode stats = requests.path(read);
            weighted += stats.path("p95").asDouble() * stats.path("count").asLong();
            count += stats.path("count").asLong();
        }
        return count == 0 ? Double.NaN : weighted / count;
    }

    /**
     * Takes customers no curve generated yet, from {@code first} on or after the last curve's (kept in {@code file}):
     * {@code count} of them, computed from the first one taken.
     */
    public static Customers takeCustomers(Path file, long first, LongUnaryOperator count) throws IOException {
        long from = Files.exists(file) ? Math.max(first, Long.parseLong(Files.readString(file).trim())) : first;
        long customers = count.applyAsLong(from);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, Long.toString(from + customers));
        return new Customers(from, customers);
    }

    /** The backlog's customers: {@code count} of them from {@code from}. */
    public record Customers(long from, long count) {
    }
}
