package io.volumizer.jobs.index;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads files' text on a worker thread, each file within a time budget, so that no file can hold the index stage
 * up or take its thread down: a parser that loops is given up (its worker is interrupted and replaced: a parser that
 * ignores the interrupt finishes on its own, apart), and one that fails with an error (a stack overflow on a file
 * nested too deep, a file that needs more memory than there is) fails that file only.
 */
final class TimedExtraction implements AutoCloseable {

    /** Bytes and their type to text; {@link IllegalArgumentException} for bytes that are not such a file. */
    interface Extractor {
        String extract(byte[] bytes, String mimeType);
    }

    private final Extractor extractor;
    private final Duration budget;
    private ExecutorService worker;

    TimedExtraction(Extractor extractor, Duration budget) {
        this.extractor = extractor;
        this.budget = budget;
    }

    /**
     * @throws IllegalArgumentException when the file cannot be read, naming why
     * @throws TimeoutException         when it was not read within the budget
     */
    String extract(byte[] bytes, String mimeType) throws TimeoutException, InterruptedException {
        if (worker == null) {
            worker = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(task, "file-text");
                thread.setDaemon(true);
                return thread;
            });
        }
        Future<String> text = worker.submit(() -> extractor.extract(bytes, mimeType));
        try {
            return text.get(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            text.cancel(true);
            worker.shutdownNow();
            worker = null;
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalArgumentException unreadable) {
                throw unreadable;
            }
            throw new IllegalArgumentException("cannot read the text of a " + mimeType + " file: " + cause, cause);
        } catch (InterruptedException e) {
            text.cancel(true);
            throw e;
        }
    }

    @Override
    public void close() {
        if (worker != null) {
            worker.shutdownNow();
        }
    }
}
