package io.volumizer.sinks.bulk;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;

import io.volumizer.options.conventions.MetricNames;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.stores.BulkResult;

/**
 * The writer of a {@link BulkSink}, an operator of the job graph: buffers records and writes them in bulk when the
 * batch is full (by count or estimated bytes), when it is older than the flush interval, before every checkpoint
 * barrier, and at the end of input. Flushing before the
 * barrier is what makes a checkpoint mean "everything before it is in the store"; after a failure, the records
 * since the checkpoint are written again, which the stores' idempotent, versioned writes absorb.
 *
 * <p>Written records go downstream (e.g. to the imported topic), stale ones (the store holds a newer version) are
 * counted and dropped, failed ones become dead letters.
 */
final class BulkSinkWriter<T> extends AbstractStreamOperator<T>
        implements OneInputStreamOperator<T, T>, ProcessingTimeCallback {

    private static final long serialVersionUID = 1L;
    /** How many of the latest batches the size and latency histograms describe (their quantiles). */
    private static final int HISTOGRAM_WINDOW = 1000;

    private final String stage;
    private final BulkWriter<T> writer;
    private final int maxRecords;
    private final long maxBytes;
    private final long flushIntervalMillis;
    private final BulkSink.SizeOf<T> sizeOf;

    private transient List<T> buffer;
    private transient long bufferedBytes;
    private transient Counter written;
    private transient Counter stale;
    private transient DeadLetters deadLetters;
    private transient Counter retries;
    private transient Histogram batchSizes;
    private transient Histogram bulkMillis;

    BulkSinkWriter(String stage, BulkWriter<T> writer, BulkFlushOptions flush, BulkSink.SizeOf<T> sizeOf) {
        this.stage = stage;
        this.writer = writer;
        this.maxRecords = flush.maxActions();
        this.maxBytes = flush.maxBytes();
        this.flushIntervalMillis = flush.interval().toMillis();
        this.sizeOf = sizeOf;
        // Runs in its upstream operator's thread: records reach the batch without being serialized in between (an
        // operator's factory chains it ALWAYS by default since Flink 2.0, which has no setter on the operator).
    }

    @Override
    public void open() throws Exception {
        super.open();
        buffer = new ArrayList<>(maxRecords);
        MetricGroup metrics = StageMetrics.of(getMetricGroup(), stage);
        written = metrics.counter(MetricNames.WRITTEN);
        metrics.meter(MetricNames.WRITTEN_PER_SECOND, new MeterView(written));
        stale = metrics.counter(MetricNames.STALE);
        deadLetters = new DeadLetters(getMetricGroup(), stage);
        retries = metrics.counter(MetricNames.RETRIES);
        batchSizes = metrics.histogram(MetricNames.BATCH_SIZE, new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        bulkMillis = metrics.histogram(MetricNames.BULK_MILLIS, new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        writer.open(getRuntimeContext());
        scheduleFlush();
    }

    @Override
    public void processElement(StreamRecord<T> element) {
        T record = element.getValue();
        buffer.add(record);
        bufferedBytes += sizeOf.bytes(record);
        if (buffer.size() >= maxRecords || bufferedBytes >= maxBytes) {
            flush();
        }
    }

    @Override
    public void onProcessingTime(long time) {
        flush();
        scheduleFlush();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            writer.close();
        } finally {
            super.close();
        }
    }

    private void scheduleFlush() {
        var timeService = getProcessingTimeService();
        timeService.registerTimer(timeService.getCurrentProcessingTime() + flushIntervalMillis, this);
    }

    private void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        batchSizes.update(buffer.size());
        long started = System.nanoTime();
        BulkResult<T> result = write(buffer);
        bulkMillis.update((System.nanoTime() - started) / 1_000_000);
        retries.inc(result.retries());
        for (T record : result.written()) {
            output.collect(new StreamRecord<>(record));
        }
        written.inc(result.written().size());
        stale.inc(result.stale().size());
        for (BulkResult.Failure<T> failure : result.failed()) {
            output.collect(DeadLetters.TAG, new StreamRecord<>(deadLetters.of(failure.reasonClass(), failure.reason(),
                    writer.idOf(failure.item()), writer.payloadOf(failure.item()))));
        }
        buffer.clear();
        bufferedBytes = 0;
    }

    /**
     * Writes a batch. A failure that is not a service fault may be one record's doing (a value the writer cannot
     * encode, say): the batch is written again in halves, down to the record alone, whose failure fails the task, as
     * often as it fails the same way, up to {@link RecordAttempts#MAX_ATTEMPTS}; then it is dead-lettered, and the
     * rest of its batch is written. A service fault fails the task at once, to restart from the checkpoint.
     */
    private BulkResult<T> write(List<T> batch) {
        try {
            return writer.write(batch);
        } catch (RuntimeException e) {
            if (RecordAttempts.isServiceFault(e)) {
                throw e;
            }
            if (batch.size() > 1) {
                BulkResult<T> result = write(batch.subList(0, batch.size() / 2));
                result.addAll(write(batch.subList(batch.size() / 2, batch.size())));
                return result;
            }
            T record = batch.get(0);
            // By the document's id: the record's encoded form may differ on a replay (the import's time in it).
            int failures = RecordAttempts.failed(attemptsScope(), writer.idOf(record), e);
            if (!RecordAttempts.isPoison(failures)) {
                throw e;
            }
            BulkResult<T> result = new BulkResult<>();
            result.failed(record, ReasonClass.FAILED_REPEATEDLY, "failed " + failures + " times the same way, the "
                    + "task restarting in between: " + e);
            return result;
        }
    }

    /** This stage's writer in this job's subtask, as a restart finds it again: a record's failures count there. */
    private String attemptsScope() {
        // Not the task name with subtasks: it ends with the attempt number, which a restart changes.
        return getRuntimeContext().getJobInfo().getJobId() + "/" + getRuntimeContext().getTaskInfo().getTaskName() + "/"
                + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + "/" + stage;
    }
}
