package io.volumizer.campaigns.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.volumizer.harness.CustomerQueries;

/**
 * Requests sent at a fixed rate whatever the answers' speed (an open model, as users arrive): each scenario's
 * request i is due at {@code i / rate} seconds, and its latency is counted from when it was due, not from when a
 * thread got to send it, so that a slow store shows as the queueing its users would see instead of as fewer requests.
 */
final class OpenModelLoad {

    /**
     * How long requests still answering are waited for after the last one was sent: their latency is part of the
     * measure, and those unanswered by then are errors, as a load tool's timeout counts them: a store that cannot
     * keep up with the rate at this size is a finding of the campaign, not a reason to end it.
     */
    static final Duration GRACE = Duration.ofMinutes(2);

    /** A request's latency once it was answered wrongly. */
    private static final long FAILED = -1;

    /** Threads sending: what the rates of one measure need while answers take up to a second. */
    private static final int SENDERS = 64;

    /** One request of a scenario; it throws when the answer is not what the scenario expects. */
    interface Request {
        void send(SplittableRandom random) throws Exception;
    }

    record Scenario(String name, int perSecond, Request request) {
    }

    /**
     * What one scenario measured.
     *
     * @param errors the requests answered wrongly, or not at all within {@link #GRACE} of the last one sent
     * @param unanswered those of the errors not answered at all
     */
    record Result(String scenario, int perSecond, long requests, long errors, long unanswered, long[] sortedNanos) {

        double percentileMs(double percent) {
            return CustomerQueries.percentile(sortedNanos, percent);
        }
    }

    private OpenModelLoad() {
    }

    static List<Result> run(List<Scenario> scenarios, Duration duration, long seed) throws InterruptedException {
        return run(scenarios, duration, seed, GRACE);
    }

    static List<Result> run(List<Scenario> scenarios, Duration duration, long seed, Duration grace)
            throws InterruptedException {
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        List<long[]> latencies = new ArrayList<>();
        List<Thread> dispatchers = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int s = 0; s < scenarios.size(); s++) {
                Scenario scenario = scenarios.get(s);
                int count = (int) (scenario.perSecond() * duration.toSeconds());
                long[] nanos = new long[count];
                latencies.add(nanos);
                SplittableRandom random = new SplittableRandom(seed + s);
                Thread dispatcher = new Thread(() -> {
                    for (int i = 0; i < count; i++) {
                        long due = start + (long) (i * 1e9 / scenario.perSecond());
                        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                            LockSupport.parkNanos(wait); // it may return early
                        }
                        int request = i;
                        SplittableRandom own = random.split();
                        senders.execute(() -> {
                            try {
                                scenario.request().send(own);
                                nanos[request] = Math.max(1, System.nanoTime() - due); // 0: no answer yet
                            } catch (Exception e) {
                                nanos[request] = FAILED;
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
        if (!senders.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
            senders.shutdownNow(); // requests not sent yet are dropped; those waiting on a store are left to end
        }
        List<Result> results = new ArrayList<>();
        for (int s = 0; s < scenarios.size(); s++) {
            long[] measured = latencies.get(s).clone(); // a request still waiting may end while this reads them
            long[] answered = Arrays.stream(measured).filter(n -> n > 0).sorted().toArray();
            long failed = Arrays.stream(measured).filter(n -> n == FAILED).count();
            long unanswered = measured.length - answered.length - failed;
            results.add(new Result(scenarios.get(s).name(), scenarios.get(s).perSecond(), measured.length,
                    failed + unanswered, unanswered, answered));
        }
        return results;
    }
}
