package io.volumizer.benchmarks.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Polls measured runs until each is through, as long as they move: a run may take as long as it takes, but when
 * none of their counts has changed for a stretch, the polling fails with what it saw, instead of waiting forever
 * for a count that cannot come (documents lost, or dead-lettered to a topic nobody counts).
 */
public final class Polling {

    /** Between two readings: the sustained window of a run of seconds still gets tens of samples. */
    static final Duration INTERVAL = Duration.ofMillis(100);

    /** Waits between readings; a test passes one that moves its clock instead. */
    interface Sleep {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final Duration stalledAfter;
    private final LongSupplier nanoTime;
    private final Sleep sleep;

    Polling(Duration stalledAfter, LongSupplier nanoTime, Sleep sleep) {
        this.stalledAfter = stalledAfter;
        this.nanoTime = nanoTime;
        this.sleep = sleep;
    }

    /** On the machine's clock. */
    public static Polling untilStalledFor(Duration stalledAfter) {
        return new Polling(stalledAfter, System::nanoTime, duration -> Thread.sleep(duration.toMillis()));
    }

    /**
     * Reads every run's counts each {@link #INTERVAL} until all are through.
     *
     * @param failIfWriterFailed throws the failure of a loop being measured
     * @throws IllegalStateException when no count of any run changed for the stretch given
     */
    public void untilThrough(List<Through> runs, Runnable failIfWriterFailed) throws InterruptedException {
        long lastChange = nanoTime.getAsLong();
        while (true) {
            long now = nanoTime.getAsLong();
            for (Through run : runs) {
                if (run.read(now)) {
                    lastChange = now;
                }
            }
            if (runs.stream().allMatch(Through::complete)) {
                return;
            }
            failIfWriterFailed.run();
            if (now - lastChange >= stalledAfter.toNanos()) {
                throw new IllegalStateException(String.format(Locale.ROOT, "no progress for %d s: %s",
                        stalledAfter.toSeconds(), runs.stream().map(Through::describe).collect(Collectors.joining("; "))));
            }
            sleep.sleep(INTERVAL);
        }
    }
}
