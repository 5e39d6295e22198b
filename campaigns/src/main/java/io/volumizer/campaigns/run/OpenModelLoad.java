package io.volumizer.campaigns.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.volumizer.benchmarks.harness.CustomerQueries;

/**
 * Requests sent at a fixed rate whatever the answers' speed (an open model, as users arrive): each scenario's
 * request i is due at {@code i / rate} seconds, and its latency is counted from when it was due, not from when a
 * thread got to send it, so that a slow store shows as the queueing its users would see instead of as fewer requests.
 */
final class OpenModelLoad {

    /** Threads sending: what the rates of one measure need while answers take up to a second. */
    private static final int SENDERS = 64;

    /** One request of a scenario; it throws when the answer is not what the scenario expects. */
    interface Request {
        void send(SplittableRandom random) throws Exception;
    }

    record Scenario(String name, int perSecond, Request request) {
    }

    /** What one scenario measured. */
    record Result(String scenario, int perSecond, long requests, long errors, long[] sortedNanos) {

        double percentileMs(double percent) {
            return CustomerQueries.percentile(sortedNanos, percent);
        }
    }

    private OpenModelLoad() {
    }

    static List<Result> run(List<Scenario> scenarios, Duration duration, long seed) throws InterruptedException {
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        List<long[]> latencies = new ArrayList<>();
        List<AtomicLong> errors = new ArrayList<>();
        List<Thread> dispatchers = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int s = 0; s < scenarios.size(); s++) {
                Scenario scenario = scenarios.get(s);
                int count = (int) (scenario.perSecond() * duration.toSeconds());
                long[] nanos = new long[count];
                AtomicLong failed = new AtomicLong();
                latencies.add(nanos);
                errors.add(failed);
                SplittableRandom random = new SplittableRandom(seed + s);
                Thread dispatcher = new Thread(() -> {
                    for (int i = 0; i < count; i++) {
                        long due = start + (long) (i * 1e9 / scenario.perSecond());
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        int request = i;
                        SplittableRandom own = random.split();
                        senders.execute(() -> {
                            try {
                                scenario.request().send(own);
                                nanos[request] = System.nanoTime() - due;
                            } catch (Exception e) {
                                nanos[request] = -1;
                                failed.incrementAndGet();
                            }
                        });
                    }
                }, "campaign-" + scenario.name());
                dispatcher.start();
                dispatchers.add(dispatcher);
            }
            for (Thread dispatcher : dispatchers) {
                dispatcher.join();
            }
        } finally {
            senders.shutdown();
        }
        // Requests still answering are waited for: their latency is part of the measure.
        if (!senders.awaitTermination(2, TimeUnit.MINUTES)) {
            senders.shutdownNow();
            throw new IllegalStateException("requests still unanswered two minutes after the measure's last was sent");
        }
        List<Result> results = new ArrayList<>();
        for (int s = 0; s < scenarios.size(); s++) {
            long[] answered = java.util.Arrays.stream(latencies.get(s)).filter(n -> n > 0).sorted().toArray();
            results.add(new Result(scenarios.get(s).name(), scenarios.get(s).perSecond(), latencies.get(s).length,
                    errors.get(s).get(), answered));
        }
        return results;
    }
}
