package io.volumizer.infra.flink;

import java.util.Properties;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/** Makes {@link HostBoundPrometheusReporter}s: {@code metrics.reporter.prom.factory.class} names this class. */
public final class HostBoundPrometheusReporterFactory implements MetricReporterFactory {

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return new HostBoundPrometheusReporter();
    }
}
