package io.volumizer.generators.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Values drawn with their weights (e.g. census frequencies): a binary search over cumulative weights. */
public final class WeightedList<T> {

    private final Object[] values;
    private final long[] cumulative;

    private WeightedList(List<T> values, List<Long> weights) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a weighted list needs at least one value");
        }
        this.values = values.toArray();
        this.cumulative = new long[weights.size()];
        long total = 0;
        for (int i = 0; i < cumulative.length; i++) {
            total += weights.get(i);
            cumulative[i] = total;
        }
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @SuppressWarnings("unchecked")
    public T pick(Rng rng) {
        long target = rng.nextLong(cumulative[cumulative.length - 1]);
        int at = Arrays.binarySearch(cumulative, target + 1);
        return (T) values[at >= 0 ? at : -at - 1];
    }

    public int size() {
        return values.length;
    }

    /** Collects values and their weights. */
    public static final class Builder<T> {
        private final List<T> values = new ArrayList<>();
        private final List<Long> weights = new ArrayList<>();

        public Builder<T> add(T value, long weight) {
            if (weight <= 0) {
                throw new IllegalArgumentException("weight of " + value + " must be positive: " + weight);
            }
            values.add(value);
            weights.add(weight);
            return this;
        }

        public WeightedList<T> build() {
            return new WeightedList<>(values, weights);
        }
    }
}
