package io.volumizer.benchmarks.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.harness.CustomerQueries;
import io.volumizer.benchmarks.sharding.ShardingBenchmark.Cell;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.stores.search.Aggregation;
import io.volumizer.stores.search.SearchQuery;

class ShardingBenchmarkTest {

    private static final List<Cell> CELLS = List.of(
            new Cell(1, "simple", 16, "fan-out", 1000, 10, 4, 10, 20, 1, 0),
            new Cell(1, "simple", 16, "targeted", 1200, 10, 3, 8, 15, 1, 0),
            new Cell(3, "simple", 16, "fan-out", 800, 10, 6, 15, 30, 3, 0),
            new Cell(3, "simple", 16, "targeted", 1300, 10, 3, 7, 12, 1, 0));

    @Test
    void percentilesAreNearestRankInMilliseconds() {
        long[] nanos = new long[100];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (i + 1) * 1_000_000L;
        }
        assertThat(CustomerQueries.percentile(nanos, 50)).isEqualTo(50.0);
        assertThat(CustomerQueries.percentile(nanos, 95)).isEqualTo(95.0);
        assertThat(CustomerQueries.percentile(nanos, 99)).isEqualTo(99.0);
        assertThat(CustomerQueries.percentile(new long[] {7_000_000}, 99)).isEqualTo(7.0);
    }

    @Test
    void everyCellIsComparedWithTheFirstLayoutsFanOutOfTheSameQueryAndConcurrency() {
        assertThat(ShardingBenchmark.baseline(CELLS, CELLS.get(3))).isSameAs(CELLS.get(0));
        String table = ShardingReport.markdown(GeneratorSettings.of(1, 10), 1260, Duration.ofSeconds(3),
                Duration.ofSeconds(10), 2, CELLS);
        assertThat(table).contains("| 3 | simple | 16 | targeted | 1 | 130 | 3.0 | 7.0 | 12.0 | 1.30 | 0.70 | 0 |");
    }

    @Test
    void aQueryIsTheCustomersDocumentsWithOrWithoutAggregations() {
        SearchQuery simple = CustomerQueries.query("0000000042", false);
        assertThat(simple.query().toString()).contains("\"properties.customerNumber\":[\"0000000042\"]");
        assertThat(simple.aggregations()).isEmpty();
        assertThat(CustomerQueries.query("0000000042", true).aggregations()).extracting(Aggregation::name)
                .containsExactly("type", "month");
    }

    @Test
    void theChartsArePngsWithABarPerLayoutAndMode(@TempDir Path folder) throws Exception {
        assertThat(ShardingReport.dataset(CELLS, Cell::throughput).getRowKeys()).containsExactly(
                "1 shard, fan-out", "1 shard, targeted", "3 shards, fan-out", "3 shards, targeted");
        ShardingReport.charts(CELLS, folder.resolve("t.png"), folder.resolve("p.png"));
        byte[] png = Files.readAllBytes(folder.resolve("t.png"));
        assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }
}
