package io.volumizer.harness;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The one wait of the runners, measured in progress, not in wall-clock time: a run may take as long as it takes,
 * but when what it reads has not changed for {@code stalledAfter}, the wait fails with what it saw, instead of
 * waiting forever for a count that cannot come (documents lost, or dead-lettered to a topic nobody counts).
 */
public final class Await {

    /** Between two readings of measured runs: the sustained window of a run of seconds still gets tens of samples. */
    static final Duration INTERVAL = Duration.ofMillis(100);

    /** Waits between readings; a test passes one that moves its clock instead. */
    interface Sleep {
        void sleep(Duration duration) throws InterruptedException;
    }

    /** A reading of a store (a count, or counts): it has moved when it is no longer equal to the last. */
    public interface Reading<T> {
        T get() throws Exception;
    }

    private final Duration interval;
    private final Duration stalledAfter;
    private final LongSupplier nanoTime;
    private final Sleep sleep;

    Await(Duration interval, Duration stalledAfter, LongSupplier nanoTime, Sleep sleep) {
        this.interval = interval;
        this.stalledAfter = stalledAfter;
        this.nanoTime = nanoTime;
        this.sleep = sleep;
    }

    /** On the machine's clock, reading every {@link #INTERVAL}. */
    public static Await stalledFor(Duration stalledAfter) {
        return new Await(INTERVAL, stalledAfter, System::nanoTime, duration -> Thread.sleep(duration.toMillis()));
    }

    /** The same wait, reading every {@code interval} (a reading that costs the store a scan). */
    public Await every(Duration interval) {
        return new Await(interval, stalledAfter, nanoTime, sleep);
    }

    /**
     * Reads every run's counts until all are through.
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
                throw stalled(runs.stream().map(Through::describe).collect(Collectors.joining("; ")));
            }
            sleep.sleep(interval);
        }
    }

    /** Reads a run until it is through. */
    public Through untilThrough(Through run) throws InterruptedException {
        untilThrough(List.of(run), () -> { });
        return run;
    }

    /** Waits until a count reaches {@code target}. */
    public long until(String what, Reading<Long> count, long target) throws Exception {
        return until(what, count, value -> value >= target);
    }

    /**
     * Waits until a reading is {@code done}.
     *
     * @throws IllegalStateException naming {@code what} when the reading stood still, not done, for the stretch given
     */
    public <T> T until(String what, Reading<T> reading, Predicate<T> done) throws Exception {
        T last = reading.get();
        long lastChange = nanoTime.getAsLong();
        while (!done.test(last)) {
            sleep.sleep(interval);
            T now = reading.get();
            if (!Objects.equals(now, last)) {
                last = now;
                lastChange = nanoTime.getAsLong();
            } else if (nanoTime.getAsLong() - lastChange >= stalledAfter.toNanos()) {
                throw stalled(what + ": " + last);
            }
        }
        return last;
    }

    private IllegalStateException stalled(String saw) {
        return new IllegalStateException(String.format(Locale.ROOT, "no progress for %d s: %s", stalledAfter.toSeconds(), saw));
    }
}
