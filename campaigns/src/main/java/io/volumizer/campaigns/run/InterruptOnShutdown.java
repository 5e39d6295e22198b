package io.volumizer.campaigns.run;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Turns the JVM's shutdown (Ctrl-C, SIGTERM) into an interrupt of the thread running a campaign, and holds the
 * shutdown until that thread has stopped its jobs and recorded where the run stopped, for at most {@link #GRACE}.
 * Without it the JVM ends mid-step: its Flink jobs run on, and run.json still says the run is running.
 */
public final class InterruptOnShutdown implements AutoCloseable {

    /** Long enough for two savepoints of the import and index jobs (a reindex's abort takes one). */
    public static final Duration GRACE = Duration.ofMinutes(3);

    private final Thread hook;
    /** Counted down by {@link #close}: the hook waits for it, not for the worker's end, which may call exit. */
    private final CountDownLatch closed = new CountDownLatch(1);

    /** Interrupts {@code worker} on shutdown, unless closed first. */
    public InterruptOnShutdown(Thread worker) {
        this.hook = new Thread(() -> {
            if (closed.getCount() == 0) {
                return;
            }
            worker.interrupt();
            try {
                closed.await(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "campaign-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook runs, and the count it waits for is down.
        }
    }
}
