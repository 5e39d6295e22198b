package io.volumizer.benchmarks.sharding;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

import io.volumizer.benchmarks.sharding.ShardingBenchmark.Cell;
import io.volumizer.generators.GeneratorSettings;

/** The sharding benchmark's table (markdown) and charts (PNG, with JFreeChart). */
final class ShardingReport {

    private ShardingReport() {
    }

    static String markdown(GeneratorSettings settings, long documents, Duration warmup, Duration measure, int rounds,
            List<Cell> cells) {
        StringBuilder md = new StringBuilder();
        md.append("# Property sharding: targeted vs fan-out queries\n\n");
        md.append(String.format(Locale.ROOT, "Run: seed %d, %,d customers, **%,d documents** in each layout, indexed by the "
                + "index stage's writer with routing by customer number. %d cores, every service on them. Each cell, "
                + "in each of %d rounds: %d s of warm-up, then %d s of back-to-back queries per user, customers drawn at "
                + "random; the two modes of a pair go first in turn, and a cell's figures are over all its rounds. "
                + "With one shard both modes ask the same shard: that pair shows the noise of the run. A query is a "
                + "customer's documents (`customer=<number>`, 20 hits by date), without or with aggregations (types, "
                + "months). *Targeted* sends it with `routing=<number>` (the customer's shard alone, as the API does); "
                + "*fan-out* asks every shard. Ratios are against the 1-shard fan-out of the same query and concurrency, "
                + "measured in the same run.%n%n", settings.seed(), settings.customers(), documents,
                Runtime.getRuntime().availableProcessors(), rounds, warmup.toSeconds(), measure.toSeconds()));
        md.append("| shards | query | users | mode | shards asked | queries/s | p50 ms | p95 ms | p99 ms | q/s vs baseline "
                + "| p95 vs baseline | errors |\n");
        md.append("|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Cell cell : cells) {
            Cell baseline = ShardingBenchmark.baseline(cells, cell);
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %s | %d | %,.0f | %.1f | %.1f | %.1f | %.2f | %.2f | %d |%n",
                    cell.shards(), cell.query(), cell.users(), cell.mode(), cell.shardsAsked(), cell.throughput(),
                    cell.p50(), cell.p95(), cell.p99(), cell.throughput() / baseline.throughput(),
                    cell.p95() / baseline.p95(), cell.errors()));
        }
        md.append("\nCharts: `sharding-throughput.png` (queries/s) and `sharding-p95.png` (p95 latency, ms).\n");
        return md.toString();
    }

    static void charts(List<Cell> cells, Path throughput, Path p95) throws IOException {
        save(chart("Queries per second (higher is better)", "queries/s", cells, Cell::throughput), throughput);
        save(chart("p95 latency (lower is better)", "ms", cells, Cell::p95), p95);
    }

    /** One bar per layout and mode, grouped by query and concurrency. */
    static DefaultCategoryDataset dataset(List<Cell> cells, ToDoubleFunction<Cell> value) {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        for (Cell cell : cells) {
            dataset.addValue(value.applyAsDouble(cell), cell.shards() + (cell.shards() == 1 ? " shard, " : " shards, ")
                    + cell.mode(), cell.query() + ", " + cell.users() + (cell.users() == 1 ? " user" : " users"));
        }
        return dataset;
    }

    private static JFreeChart chart(String title, String unit, List<Cell> cells, ToDoubleFunction<Cell> value) {
        return ChartFactory.createBarChart(title, "query, concurrent users", unit, dataset(cells, value),
                PlotOrientation.VERTICAL, true, false, false);
    }

    private static void save(JFreeChart chart, Path file) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 1100, 550);
    }
}
