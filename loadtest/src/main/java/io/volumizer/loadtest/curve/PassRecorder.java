package io.volumizer.loadtest.curve;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.ops.throttle.hold.HoldLoop;
import io.volumizer.ops.throttle.hold.LatencyHistogram;
import io.volumizer.ops.throttle.hold.PassedCounts;
import io.volumizer.options.conventions.ApiRouteGroup;

/**
 * What one pass of the curve measured on the server side: the route group's p95 over the pass and in each window
 * (from the API's histogram, as the hold controller sees it), the docs/s the import's jobs let through (from
 * their TaskManagers' counters) in the windows the users were there: not while Gatling starts, which no controller
 * can judge; and the windows at whose end the import had read the whole backlog, which make the pass's rate
 * the input's, not the import's. A thread reads the endpoints every window while the users run.
 */
final class PassRecorder implements AutoCloseable {

    /**
     * A pass's figures: windows with fewer requests than the minimum are left out of {@code windowP95s};
     * {@code dryWindows} of them ended with the import's lag at 0.
     */
    record Measured(double seconds, double achievedDocsPerSecond, double p95Seconds, long requests,
            List<Double> windowP95s, long dryWindows) {

        /** Whether the import ran out of documents in some window: then its rate is not a measure of the pass. */
        boolean ranDry() {
            return dryWindows > 0;
        }

        long windowsUnder(double targetSeconds) {
            return windowP95s.stream().filter(p95 -> p95 < targetSeconds).count();
        }
    }

    private final HoldLoop.Scrape api;
    private final HoldLoop.Scrape jobs;
    private final ApiRouteGroup group;
    private final Set<String> jobIds;
    private final boolean importReads;
    private final Duration window;
    private final long minRequests;
    private final List<Double> windowP95s = new ArrayList<>();
    private LatencyHistogram first;
    private LatencyHistogram last;
    private PassedCounts firstPassed;
    private PassedCounts lastPassed;
    private long started;
    private long lastNanos;
    private double passedWithUsers;
    private double secondsWithUsers;
    private long dryWindows;
    /** The most subtasks that reported the import's lag in one reading of this pass. */
    private int lagSeries;
    private Thread sampler;

    /**
     * @param importReads whether the import reads during the pass: a paused source does not poll Kafka, so the lag
     *                    it reports is the last it fetched, and a pass that reads nothing cannot run dry
     */
    PassRecorder(HoldLoop.Scrape api, HoldLoop.Scrape jobs, ApiRouteGroup group, Set<String> jobIds,
            boolean importReads, Duration window, long minRequests) {
        this.api = api;
        this.jobs = jobs;
        this.group = group;
        this.jobIds = jobIds;
        this.importReads = importReads;
        this.window = window;
        this.minRequests = minRequests;
    }

    void start() throws IOException, InterruptedException {
        List<PrometheusScrape.Sample> samples = api.samples();
        if (samples.isEmpty()) {
            throw new IOException("the API's metrics did not answer: the pass is not measured");
        }
        first = LatencyHistogram.of(samples, group);
        last = first;
        List<PrometheusScrape.Sample> jobSamples = jobs.samples();
        firstPassed = PassedCounts.of(jobSamples, jobIds);
        lagSeries = ImportLag.of(jobSamples, jobIds).series();
        lastPassed = firstPassed;
        started = System.nanoTime();
        lastNanos = started;
        sampler = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(window.toMillis());
                    sample();
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                System.err.println("volumizer: the API's metrics were not read: " + e.getMessage());
            }
        }, "curve-windows");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() throws IOException, InterruptedException {
        List<PrometheusScrape.Sample> samples = api.samples();
        if (samples.isEmpty()) {
            return; // not answered: the next window spans this one too
        }
        LatencyHistogram now = LatencyHistogram.of(samples, group);
        List<PrometheusScrape.Sample> jobSamples = jobs.samples();
        PassedCounts passed = PassedCounts.of(jobSamples, jobIds);
        ImportLag lag = ImportLag.of(jobSamples, jobIds);
        lagSeries = Math.max(lagSeries, lag.series());
        boolean dry = importReads && lag.caughtUp(lagSeries);
        long nanos = System.nanoTime();
        synchronized (windowP95s) {
            Optional<LatencyHistogram> requests = now.since(last).filter(window -> window.count() >= minRequests);
            requests.ifPresent(window -> windowP95s.add(window.quantile(0.95)));
            if (requests.isPresent()) {
                passedWithUsers += passed.since(lastPassed);
                secondsWithUsers += (nanos - lastNanos) / 1e9;
                dryWindows += dry ? 1 : 0;
            }
            last = now;
            lastPassed = passed;
            lastNanos = nanos;
        }
    }

    /** Stops the windows and measures the whole pass. */
    Measured finish() throws IOException, InterruptedException {
        close();
        double seconds = (System.nanoTime() - started) / 1e9;
        double passed = PassedCounts.of(jobs.samples(), jobIds).since(firstPassed);
        LatencyHistogram pass = LatencyHistogram.of(api.samples(), group).since(first)
                .orElseThrow(() -> new IOException("the API restarted during the pass: its counts began again"));
        synchronized (windowP95s) {
            double achieved = secondsWithUsers > 0 ? passedWithUsers / secondsWithUsers : passed / seconds;
            return new Measured(seconds, achieved, pass.quantile(0.95), pass.count(), List.copyOf(windowP95s), dryWindows);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (sampler != null) {
            sampler.interrupt();
            sampler.join();
        }
    }
}
