package io.volumizer.jobs.index;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import io.volumizer.options.conventions.MetricNames;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.schemas.event.ImportedEvent;

/**
 * The end of the file text's branch: how far it runs behind the import, as the time from each document's import to
 * its text written into the index ({@value MetricNames#FILE_TEXT_DELAY_MILLIS}, quantiles over the last 1,000
 * documents; its lag, where the branch has no topic of its own to measure a consumer's lag on). An observation
 * only, by the import's and this TaskManager's clocks: nothing waits on it.
 */
final class FileTextDelay implements Sink<ImportedEvent> {

    private static final long serialVersionUID = 1L;
    private static final int HISTOGRAM_WINDOW = 1000;

    @Override
    public SinkWriter<ImportedEvent> createWriter(WriterInitContext context) {
        return writer(context.metricGroup());
    }

    static SinkWriter<ImportedEvent> writer(MetricGroup operator) {
        Histogram delays = StageMetrics.of(operator, MetricNames.FILE_TEXT).histogram(MetricNames.FILE_TEXT_DELAY_MILLIS,
                new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        return new SinkWriter<>() {
            @Override
            public void write(ImportedEvent indexed, Context context) {
                delays.update(Math.max(0, System.currentTimeMillis() - indexed.getImportedAt().toEpochMilli()));
            }

            @Override
            public void flush(boolean endOfInput) {
            }

            @Override
            public void close() {
            }
        };
    }
}
