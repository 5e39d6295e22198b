package io.volumizer.generators.render;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;

import org.apache.pdfbox.io.RandomAccessRead;
import org.apache.pdfbox.io.RandomAccessReadView;

/**
 * The memory one file's reading may allocate, on the thread that reads it: checked wherever a parser reads the
 * file's bytes (a compressed stream is decoded as its bytes are read, a few kilobytes at a time, so a stream that
 * inflates to gigabytes is stopped at the budget, not after it) and wherever the caller checks. Once over, every
 * check fails: a parser that catches one failure and reads on is stopped at its next read.
 *
 * <p>Bytes allocated, not held: the JVM counts them per thread for free (HotSpot's thread allocation counter), and
 * they bound what a file can hold. On a JVM without that counter, nothing is checked.
 */
final class AllocationBudget {

    private static final com.sun.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean()
            instanceof com.sun.management.ThreadMXBean counting && counting.isThreadAllocatedMemorySupported()
            && counting.isThreadAllocatedMemoryEnabled() ? counting : null;

    /** Thrown out of the parser (which passes unchecked exceptions on) at the first check past the budget. */
    static final class Exceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exceeded(long budget) {
            super("reading it needs more than " + budget / (1024 * 1024) + " MiB of memory, its budget");
        }
    }

    /**
     * Small steps (a byte read alone, as the parser reads tokens; a character placed on a page) allocate little: the
     * counter, whose read costs a call, is read every so many of them, and at every read of many bytes (which is how
     * streams are decoded).
     */
    private static final int STEPS_PER_CHECK = 1024;

    private final long budget;
    private final long start;
    private boolean exceeded;
    private long steps;

    /** A budget of {@code bytes} from now, for the calling thread. */
    AllocationBudget(long bytes) {
        this.budget = bytes;
        this.start = allocated();
    }

    private static long allocated() {
        return THREADS == null ? 0 : THREADS.getCurrentThreadAllocatedBytes();
    }

    /** @throws Exceeded when the calling thread has allocated more than the budget since it was made */
    void check() {
        if (exceeded || allocated() - start > budget) {
            exceeded = true;
            throw new Exceeded(budget);
        }
    }

    /** A small step taken: the budget is checked every {@link #STEPS_PER_CHECK} of them. */
    void step() {
        if (++steps % STEPS_PER_CHECK == 0) {
            check();
        }
    }

    /** {@code in}, checking the budget at every read. */
    InputStream checking(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                check();
                return super.read();
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                check();
                return super.read(bytes, offset, length);
            }
        };
    }

    /** {@code file}, checking the budget at every read, its views (a PDF's streams) too. */
    RandomAccessRead checking(RandomAccessRead file) {
        return new RandomAccessRead() {
            @Override
            public int read() throws IOException {
                step();
                return file.read();
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                check();
                return file.read(bytes, offset, length);
            }

            @Override
            public long getPosition() throws IOException {
                return file.getPosition();
            }

            @Override
            public void seek(long position) throws IOException {
                file.seek(position);
            }

            @Override
            public long length() throws IOException {
                return file.length();
            }

            @Override
            public boolean isClosed() {
                return file.isClosed();
            }

            @Override
            public boolean isEOF() throws IOException {
                return file.isEOF();
            }

            @Override
            public RandomAccessReadView createView(long startPosition, long length) {
                return new RandomAccessReadView(this, startPosition, length);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }
}
