package io.volumizer.jobs.reindex;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A query's results read on a thread of its own, a page at a time, for a task's thread that must stay interruptible:
 * a database driver blocked in a socket read answers no interrupt, so a task blocked in one outlives its
 * cancellation until Flink's watchdog kills the whole TaskManager. The task's thread waits for a page in a queue
 * instead, and a cancellation's interrupt ends the wait. Two pages at most are read ahead of the one taken.
 */
final class PagesReadAside<T> implements AutoCloseable {

    private static final Object END = new Object();

    private record Failure(RuntimeException cause) {
    }

    private final BlockingQueue<Object> pages = new ArrayBlockingQueue<>(2);
    private final Thread reader;

    /**
     * Starts reading {@code results} in pages of {@code pageSize}, after {@code holdFirst} (a test's slow read);
     * their iterator is closed when the read ends, if it is closeable.
     */
    PagesReadAside(String name, Iterable<T> results, int pageSize, Duration holdFirst) {
        reader = new Thread(() -> read(results, pageSize, holdFirst), name);
        reader.setDaemon(true); // a read blocked in the driver must never keep a TaskManager's JVM alive
        reader.start();
    }

    private void read(Iterable<T> results, int pageSize, Duration holdFirst) {
        try {
            Thread.sleep(holdFirst.toMillis());
            Iterator<T> iterator = results.iterator();
            try {
                List<T> page = new ArrayList<>(pageSize);
                while (iterator.hasNext()) {
                    page.add(iterator.next());
                    if (page.size() == pageSize) {
                        pages.put(page);
                        page = new ArrayList<>(pageSize);
                    }
                }
                if (!page.isEmpty()) {
                    pages.put(page);
                }
                pages.put(END);
            } finally {
                if (iterator instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closed: nobody takes the rest
        } catch (RuntimeException e) {
            handOver(new Failure(e));
        } catch (Exception e) {
            handOver(new Failure(new IllegalStateException(e)));
        }
    }

    private void handOver(Failure failure) {
        try {
            pages.put(failure);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The next page, or empty once every result was taken (then not to be called again).
     *
     * @throws RuntimeException what the read threw
     * @throws InterruptedException when the task is cancelled meanwhile
     */
    @SuppressWarnings("unchecked")
    Optional<List<T>> next() throws InterruptedException {
        Object next = pages.take();
        if (next instanceof Failure failure) {
            throw failure.cause();
        }
        return next == END ? Optional.empty() : Optional.of((List<T>) next);
    }

    /** Stops the read, if it still runs (a page it holds is dropped). */
    @Override
    public void close() {
        reader.interrupt();
    }
}
