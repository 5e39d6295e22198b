package io.volumizer.ops.throttle.hold;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.ApiRouteGroup;

/**
 * The hold mode's loop, outside the jobs: every window it reads the API's latency histogram of a route group and
 * what the throttled jobs let through (their TaskManagers' counters), asks the {@link AimdController} for the next
 * limit and sets it on the control topic; each decision is logged and kept as a metric. The limit set last stays
 * when the loop ends.
 */
public final class HoldLoop {

    /** Samples of a Prometheus endpoint. */
    public interface Scrape {
        List<PrometheusScrape.Sample> samples() throws IOException, InterruptedException;
    }

    /** Sets the throttle's limit. */
    public interface Limit {
        void set(double docsPerSecond) throws Exception;
    }

    /** The ids of the running jobs the throttle holds. */
    public interface Jobs {
        Set<String> ids() throws IOException;
    }

    private final Scrape api;
    private final Scrape jobMetrics;
    private final Jobs jobs;
    private final ApiRouteGroup group;
    private final AimdController controller;
    private final Limit limit;
    private final HoldMetrics metrics;
    private final PrintStream log;
    private final LongSupplier nanoTime;

    private double current;
    private AimdController.Phase phase = AimdController.Phase.START;
    /**
     * The API's histograms at the starts of the last windows, oldest first: the longer of the probe and decrease spans
     * begins at the first.
     */
    private final Deque<LatencyHistogram> windowStarts = new ArrayDeque<>();
    /**
     * Windows judged since slow start ended, the one that ended it included: a probe's span reaches back no further,
     * since slow start's quiet windows at lower rates would pull the span's p95 down and let a probe climb on a window
     * already near the target, just before one over it.
     */
    private int windowsAfterSlowStart;
    private PassedCounts lastPassed;
    private long lastNanos;

    /**
     * @param jobMetrics the TaskManagers' samples, where the throttled jobs count what they let through
     * @param jobs       the throttled step's running jobs: those whose documents count
     */
    public HoldLoop(Scrape api, Scrape jobMetrics, Jobs jobs, ApiRouteGroup group, AimdController controller,
            Limit limit, HoldMetrics metrics, PrintStream log, LongSupplier nanoTime) {
        this.api = api;
        this.jobMetrics = jobMetrics;
        this.jobs = jobs;
        this.group = group;
        this.controller = controller;
        this.limit = limit;
        this.metrics = metrics;
        this.log = log;
        this.nanoTime = nanoTime;
    }

    /** Sets the first limit and takes the first readings, which the first window is measured from. */
    public void start(double initialLimit) throws Exception {
        current = controller.firstLimit(initialLimit);
        limit.set(current);
        metrics.limit(current);
        windowStarts.add(LatencyHistogram.of(api.samples(), group));
        lastPassed = passed();
        lastNanos = nanoTime.getAsLong();
        log.printf(Locale.ROOT, "%s hold: %s p95 under %s, jobs %s at %.0f docs/s to start%n", Instant.now(), group.id(),
                AimdController.ms(controller.targetSeconds()), jobs.ids(), current);
    }

    /** Every {@code interval} a window, until interrupted. */
    public void run(Duration interval) throws Exception {
        while (!Thread.currentThread().isInterrupted()) {
            Thread.sleep(interval.toMillis());
            try {
                window();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                // Metrics not read, the control topic not written: the next window tries again.
                log.println(Instant.now() + " hold: limit kept at " + Math.round(current) + " docs/s: " + e);
            }
        }
    }

    /** One window: the requests and documents since the last, the decision, applied. */
    public AimdController.Decision window() throws Exception {
        List<PrometheusScrape.Sample> apiSamples = api.samples();
        PassedCounts passed = passed();
        long now = nanoTime.getAsLong();
        double achieved = passed.since(lastPassed) / ((now - lastNanos) / 1e9);
        LatencyHistogram latencies = LatencyHistogram.of(apiSamples, group);
        Optional<LatencyHistogram> window = apiSamples.isEmpty() ? Optional.empty() : latencies.since(windowStarts.getLast());
        AimdController.Decision decision = window
                .map(requests -> controller.decide(current, requests, span(latencies, controller.decreaseWindows(), requests),
                        span(latencies, phase.slowStart() ? controller.probeWindows()
                                : Math.min(controller.probeWindows(), windowsAfterSlowStart + 1), requests),
                        achieved, phase))
                .orElse(new AimdController.Decision(AimdController.Kind.HOLD, current, apiSamples.isEmpty()
                        ? "the API's metrics did not answer" : "the API restarted: its counts began again"));
        if (decision.limit() != current) {
            limit.set(decision.limit());
        }
        double p95 = window.map(requests -> requests.quantile(0.95)).orElse(Double.NaN);
        metrics.window(decision, p95, achieved);
        log.printf(Locale.ROOT, "%s hold: %d requests, p95 %s; %.0f docs/s achieved; limit %.0f -> %.0f docs/s "
                        + "(%s: %s)%n", Instant.now(), window.map(LatencyHistogram::count).orElse(0L),
                Double.isNaN(p95) ? "-" : AimdController.ms(p95), achieved, current, decision.limit(),
                decision.kind().name().toLowerCase(Locale.ROOT), decision.reason());
        AimdController.Phase next = phase.after(decision, achieved, current, p95);
        if (!next.slowStart() && window.isPresent()) {
            windowsAfterSlowStart = phase.slowStart() ? 1 : Math.min(controller.probeWindows(), windowsAfterSlowStart + 1);
        }
        phase = next;
        current = decision.limit();
        if (window.isEmpty() && !apiSamples.isEmpty()) {
            windowStarts.clear(); // the API restarted: its counts began again
        }
        if (!apiSamples.isEmpty()) {
            windowStarts.add(latencies);
            while (windowStarts.size() > Math.max(controller.probeWindows(), controller.decreaseWindows())) {
                windowStarts.removeFirst();
            }
        }
        lastPassed = passed;
        lastNanos = now;
        return decision;
    }

    /** The requests of the last {@code windows} windows (fewer after a start or an API restart), this one included. */
    private LatencyHistogram span(LatencyHistogram now, int windows, LatencyHistogram window) {
        LatencyHistogram start = windowStarts.stream().skip(Math.max(0, windowStarts.size() - windows)).findFirst()
                .orElseThrow();
        return now.since(start).orElse(window);
    }

    /** The limit set last. */
    public double limit() {
        return current;
    }

    private PassedCounts passed() throws IOException, InterruptedException {
        return PassedCounts.of(jobMetrics.samples(), jobs.ids());
    }
}
