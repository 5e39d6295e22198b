package io.volumizer.sinks.bulk;

import java.io.Serializable;
import java.time.Duration;

/**
 * When a {@link BulkSink} writes its batch: at {@code maxActions} records, at {@code maxBytes} of estimated request,
 * or when it is {@code interval} old; always before a checkpoint barrier and at the end of input.
 */
public record BulkFlushOptions(int maxActions, long maxBytes, Duration interval) implements Serializable {

    public BulkFlushOptions {
        if (maxActions < 1 || maxBytes < 1 || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("a batch needs at least one record, one byte and a positive interval: "
                    + maxActions + ", " + maxBytes + ", " + interval);
        }
    }
}
