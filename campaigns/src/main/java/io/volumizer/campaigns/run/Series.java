package io.volumizer.campaigns.run;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A stage's throughput over a step: docs/s between consecutive samples of its count, at seconds since the step began. */
final class Series {

    private final String stage;
    private final long startNanos;
    private final List<double[]> points = new ArrayList<>();
    private double lastSeconds;
    private long lastCount;

    Series(String stage, long startNanos, long startCount) {
        this.stage = stage;
        this.startNanos = startNanos;
        this.lastCount = startCount;
        points.add(new double[] {0, 0});
    }

    void sample(long nanos, long count) {
        double seconds = (nanos - startNanos) / 1e9;
        if (seconds > lastSeconds) {
            points.add(new double[] {seconds, Math.max(0, count - lastCount) / (seconds - lastSeconds)});
            lastSeconds = seconds;
            lastCount = count;
        }
    }

    void addTo(ArrayNode series) {
        ObjectNode json = series.addObject().put("stage", stage);
        ArrayNode array = json.putArray("points");
        points.forEach(point -> array.addArray().add(Math.round(point[0] * 10) / 10.0).add(Math.round(point[1] * 10) / 10.0));
    }
}
