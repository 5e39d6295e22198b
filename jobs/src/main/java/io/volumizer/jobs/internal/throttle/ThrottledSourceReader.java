package io.volumizer.jobs.internal.throttle;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.schemas.event.ThrottleSetting;

/**
 * A source reader that lets records through at this subtask's share of its throttle's limit (the limit over the
 * job's parallelism), and none while paused or before the control topic has been read: it answers "nothing
 * available" with a future that completes when a record may pass or the setting changes, so the task stays free to
 * take checkpoints meanwhile. Every other call is the wrapped reader's.
 */
final class ThrottledSourceReader<T, S extends SourceSplit> implements SourceReader<T, S> {

    private static final Logger LOG = LoggerFactory.getLogger(ThrottledSourceReader.class);
    /**
     * The shortest wait: a reader held for less lets a few records through at each wake-up instead, so that a high
     * limit costs a wake-up every few milliseconds, not one per record.
     */
    private static final long MIN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final SourceReader<T, S> reader;
    private final Throttle throttle;
    private final int parallelism;
    private final RateGate gate;
    private final ControlFollower follower;
    private final CountingOutput<T> counting = new CountingOutput<>();
    private final Counter documents;
    private final ScheduledExecutorService timer;
    /** The documents let through not yet counted whole: a record's weight may be a fraction. */
    private double uncounted;
    private volatile ThrottleSetting obeyed;
    private volatile boolean known;
    private volatile CompletableFuture<Void> held;

    ThrottledSourceReader(SourceReader<T, S> reader, Throttle throttle, SourceReaderContext context, LongSupplier nanoTime) {
        this.reader = reader;
        this.throttle = throttle;
        this.parallelism = Math.max(1, context.currentParallelism());
        this.gate = new RateGate(nanoTime);
        gate.set(0, true); // until the control topic is read
        MetricGroup metrics = StageMetrics.of(context.metricGroup(), throttle.stage());
        documents = metrics.counter(MetricNames.THROTTLE_PASSED);
        metrics.meter(MetricNames.THROTTLE_ACHIEVED, new MeterView(documents));
        metrics.gauge(MetricNames.THROTTLE_LIMIT, () -> obeyed == null ? 0.0 : obeyed.getDocsPerSecond());
        metrics.gauge(MetricNames.THROTTLE_PAUSED, () -> !known || obeyed != null && obeyed.getPaused() ? 1 : 0);
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "throttle timer " + throttle.targets());
            thread.setDaemon(true);
            return thread;
        });
        this.follower = throttle.follow(this::obey);
    }

    /** The setting now obeyed (none: no limit), from the follower's thread. */
    private void obey(Optional<ThrottleSetting> setting) {
        ThrottleSetting before = obeyed;
        obeyed = setting.orElse(null);
        known = true;
        gate.set(setting.map(s -> s.getDocsPerSecond() / parallelism).orElse(0.0), setting.map(ThrottleSetting::getPaused).orElse(false));
        if (before == null ? obeyed != null : !before.equals(obeyed)) {
            LOG.info("{} of {}: {}", throttle.targets(), throttle.controlTopic(), obeyed == null ? "no limit"
                    : obeyed.getPaused() ? "paused" : obeyed.getDocsPerSecond() <= 0 ? "no limit"
                    : obeyed.getDocsPerSecond() + " docs/s (" + obeyed.getDocsPerSecond() / parallelism + " for this subtask)");
        }
        CompletableFuture<Void> waiting = held;
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    @Override
    public void start() {
        follower.start();
        reader.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        long version = gate.version();
        long wait = gate.waitNanos(throttle.weight());
        if (wait > 0) {
            CompletableFuture<Void> waiting = new CompletableFuture<>();
            held = waiting;
            if (gate.version() != version) {
                waiting.complete(null); // changed since the gate answered: {@link #obey} may have missed this future
            } else if (wait != RateGate.PAUSED) {
                timer.schedule(() -> waiting.complete(null), Math.max(wait, MIN_WAIT_NANOS), TimeUnit.NANOSECONDS);
            }
            return InputStatus.NOTHING_AVAILABLE;
        }
        held = null;
        long before = counting.records();
        InputStatus status = reader.pollNext(counting.around(output));
        double passed = (counting.records() - before) * throttle.weight();
        gate.took(passed);
        uncounted += passed;
        long whole = (long) uncounted;
        documents.inc(whole);
        uncounted -= whole;
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        CompletableFuture<Void> waiting = held;
        return waiting != null ? waiting : reader.isAvailable();
    }

    @Override
    public List<S> snapshotState(long checkpointId) {
        return reader.snapshotState(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        reader.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void addSplits(List<S> splits) {
        reader.addSplits(splits);
    }

    @Override
    public void notifyNoMoreSplits() {
        reader.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        reader.handleSourceEvents(event);
    }

    @Override
    public void pauseOrResumeSplits(java.util.Collection<String> toPause, java.util.Collection<String> toResume) {
        reader.pauseOrResumeSplits(toPause, toResume);
    }

    @Override
    public void close() throws Exception {
        follower.close();
        timer.shutdownNow();
        reader.close();
    }

    /** An output counting the records it passes on, into a count it may share with others. */
    private static class CountingSourceOutput<T> implements SourceOutput<T> {

        /** One count for the reader's output and its splits' (the task's thread alone writes it). */
        static final class Count {
            long records;
        }

        final Count count;
        SourceOutput<T> output;

        CountingSourceOutput(SourceOutput<T> output, Count count) {
            this.output = output;
            this.count = count;
        }

        @Override
        public void collect(T record) {
            count.records++;
            output.collect(record);
        }

        @Override
        public void collect(T record, long timestamp) {
            count.records++;
            output.collect(record, timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            output.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            output.markIdle();
        }

        @Override
        public void markActive() {
            output.markActive();
        }
    }

    /** The reader's output, and the outputs of its splits (which a reader creates once and keeps), counted as one. */
    private static final class CountingOutput<T> extends CountingSourceOutput<T> implements ReaderOutput<T> {

        private ReaderOutput<T> reader;

        CountingOutput() {
            super(null, new Count());
        }

        CountingOutput<T> around(ReaderOutput<T> output) {
            this.reader = output;
            this.output = output;
            return this;
        }

        long records() {
            return count.records;
        }

        @Override
        public SourceOutput<T> createOutputForSplit(String splitId) {
            return new CountingSourceOutput<>(reader.createOutputForSplit(splitId), count);
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
            reader.releaseOutputForSplit(splitId);
        }
    }
}
