package io.volumizer.sinks.metrics;

import org.apache.flink.metrics.MetricGroup;

import io.volumizer.options.conventions.MetricNames;

/**
 * Where a stage's own metrics live: the {@code volumizer} group of its operator, labelled with the stage. Flink's
 * Prometheus reporter exports them as {@code flink_taskmanager_job_task_operator_volumizer_stage_<metric>{stage="…"}}
 * ({@link MetricNames#prometheusName}) beside Flink's own (records in and out, Kafka consumer lag, JVM), which they
 * do not repeat.
 */
public final class StageMetrics {

    private StageMetrics() {
    }

    /** The group of {@code stage}'s metrics under an operator's (or a function's runtime context's) group. */
    public static MetricGroup of(MetricGroup operator, String stage) {
        return operator.addGroup(MetricNames.GROUP).addGroup(MetricNames.STAGE_LABEL, stage);
    }
}
