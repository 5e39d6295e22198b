package io.volumizer.generators.internal;

/**
 * SplitMix64: a tiny, fully specified generator, so that content is identical on every JVM and version (the JDK's
 * generators are not promised to stay the same). Each entity gets its own stream from {@link #of(long...)}, which
 * is what makes any document computable without generating the ones before it.
 */
public final class Rng {

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private long state;

    private Rng(long state) {
        this.state = state;
    }

    /** A stream determined by its coordinates only, e.g. {@code of(seed, CUSTOMER, customerNumber)}. */
    public static Rng of(long... coordinates) {
        long state = 0x5DEECE66DL;
        for (long coordinate : coordinates) {
            state = mix(state ^ mix(coordinate + GOLDEN_GAMMA));
        }
        return new Rng(state);
    }

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** Uniform in [0, bound). */
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        // The modulo bias is below 2^-40 for any bound this generator uses.
        return (nextLong() >>> 1) % bound;
    }

    /** Uniform in [0, bound). */
    public int nextInt(int bound) {
        return (int) nextLong(bound);
    }

    /** Uniform in [min, max]. */
    public int between(int min, int max) {
        return min + nextInt(max - min + 1);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    public boolean chance(double probability) {
        return nextDouble() < probability;
    }
}
