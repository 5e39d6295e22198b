package io.volumizer.campaigns.report;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One chart of the page, as uPlot draws it: the x values of all its lines merged, and each line's y values aligned on
 * them (null where the line has no point; the page joins a line across them). {@code sizes}: x is the repository's
 * documents, drawn on a log scale with a tick at each size.
 */
record Chart(String id, String title, String xLabel, String yLabel, boolean sizes, List<Line> lines) {

    /** A line: its legend, its colour (one per figure) and whether it is the compared run's (dashed). */
    record Line(String label, int color, boolean compared, List<double[]> points) {
    }

    boolean hasData() {
        return lines.stream().anyMatch(line -> !line.points().isEmpty());
    }

    ObjectNode toJson() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode chart = nodes.objectNode().put("id", id).put("title", title).put("xLabel", xLabel)
                .put("yLabel", yLabel).put("sizes", sizes);
        ArrayNode series = chart.putArray("series");
        TreeSet<Double> xs = new TreeSet<>();
        lines.forEach(line -> line.points().forEach(point -> xs.add(point[0])));
        ArrayNode data = chart.putArray("data");
        ArrayNode xColumn = data.addArray();
        xs.forEach(xColumn::add);
        List<Double> xList = new ArrayList<>(xs);
        for (Line line : lines) {
            series.addObject().put("label", line.label()).put("color", line.color()).put("compared", line.compared());
            Double[] ys = new Double[xList.size()];
            line.points().forEach(point -> ys[xList.indexOf(point[0])] = point[1]);
            ArrayNode column = data.addArray();
            for (Double y : ys) {
                if (y == null) {
                    column.addNull();
                } else {
                    column.add(y);
                }
            }
        }
        return chart;
    }
}
