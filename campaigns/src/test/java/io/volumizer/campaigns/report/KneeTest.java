package io.volumizer.campaigns.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class KneeTest {

    private static SizeSeries series(String name, double... values) {
        String[] labels = {"1M", "2M", "5M", "10M", "20M"};
        double[] documents = {1e6, 2e6, 5e6, 1e7, 2e7};
        List<SizeSeries.AtSize> points = new java.util.ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            points.add(new SizeSeries.AtSize(labels[i], documents[i], values[i]));
        }
        return new SizeSeries(name, points);
    }

    @Test
    void aRateThatFallsByMoreThanTheThresholdFromOneSizeToTheNextIsAKnee() {
        Knee knee = Knee.first(series("import", 8400, 8100, 7600, 4300, 2500), "docs/s", true, 25).orElseThrow();

        assertThat(knee.before().size()).isEqualTo("5M");
        assertThat(knee.after().size()).isEqualTo("10M");
        assertThat(knee.sentence()).isEqualTo("import fell from 7,600 to 4,300 docs/s (-43.4 %) between 5M and 10M");
    }

    @Test
    void aSlowDeclineUnderTheThresholdAtEachSizeIsNoKneeEvenIfItAddsUp() {
        assertThat(Knee.first(series("import", 8000, 6500, 5300, 4300, 3500), "docs/s", true, 25)).isEmpty();
        assertThat(Knee.first(series("import", 8000, 6500, 5300, 4300, 3500), "docs/s", true, 15)).isPresent();
    }

    @Test
    void aP95ThatRisesByMoreThanTheThresholdIsAKneeAndOneThatFallsIsNot() {
        assertThat(Knee.first(series("search p95", 40, 42, 60), "ms", false, 25).orElseThrow().sentence())
                .isEqualTo("search p95 rose from 42 to 60 ms (+42.9 %) between 2M and 5M");
        assertThat(Knee.first(series("search p95", 60, 40, 20), "ms", false, 25)).isEmpty();
    }

    @Test
    void aRunIsSearchedStageByStageAndScenarioByScenario() {
        List<String> knees = Knee.of(Fixtures.run(Fixtures.WITH_KNEE), 25).stream().map(Knee::sentence).toList();

        assertThat(knees).containsExactly(
                "import fell from 7,600 to 4,300 docs/s (-43.4 %) between 5M and 10M",
                "index fell from 7,450 to 4,250 docs/s (-43.0 %) between 5M and 10M");
        assertThat(Knee.of(Fixtures.run(Fixtures.WITHOUT_KNEE), 25)).isEmpty();
        assertThat(Knee.none(Fixtures.run(Fixtures.WITHOUT_KNEE))).isEqualTo("No knee within the sizes run (1M, 2M, 5M, 10M).");
        // The p95 of search rose 23 % from 5M to 10M in run A: a knee only under a lower threshold.
        assertThat(Knee.of(Fixtures.run(Fixtures.WITH_KNEE), 20).stream().map(Knee::sentence))
                .contains("search p95 rose from 47 to 58 ms (+23.4 %) between 5M and 10M");
    }
}
