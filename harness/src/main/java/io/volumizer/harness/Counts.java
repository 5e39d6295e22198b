package io.volumizer.harness;

/** A store's count for a poll loop, whose readings are plain suppliers while the stores' clients throw. */
public final class Counts {

    /** A count a store's client reads. */
    @FunctionalInterface
    public interface Count {
        long get() throws Exception;
    }

    private Counts() {
    }

    /** The count; a failure to read it fails the measure. */
    public static long orFail(Count count) {
        try {
            return count.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The count, or -1 while the store cannot answer (during a fault): the poll reads it again. */
    public static long orMinusOne(Count count) {
        try {
            return count.get();
        } catch (Exception unavailable) {
            return -1;
        }
    }
}
