package io.volumizer.ops.throttle.hold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.ApiRouteGroup;
import io.volumizer.options.conventions.MetricNames;

class HoldLoopTest {

    private final List<List<PrometheusScrape.Sample>> apiScrapes = new ArrayList<>();
    private final List<Double> passedScrapes = new ArrayList<>();
    private final List<Double> limits = new ArrayList<>();
    private final AtomicLong nanos = new AtomicLong();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private HoldLoop loop(HoldMetrics metrics) {
        return loop(metrics, new AimdController(0.05, 25, 0.7, 0.8, 10, 0, 50, 2, 2));
    }

    private HoldLoop loop(HoldMetrics metrics, AimdController controller) {
        return new HoldLoop(() -> apiScrapes.remove(0), () -> jobSamples(passedScrapes.remove(0)), () -> Set.of("a1", "a2"),
                ApiRouteGroup.NAVIGATION, controller, limits::add, metrics,
                new PrintStream(log, true, StandardCharsets.UTF_8), () -> nanos.addAndGet(5_000_000_000L));
    }

    /** {@code loop} started at 100 docs/s, before any request or document. */
    private HoldLoop started(HoldLoop loop) throws Exception {
        apiScrapes.add(LatencyHistogramTest.scrape(0, 0, 0, 0));
        passedScrapes.add(0.0);
        loop.start(100);
        return loop;
    }

    /** Two jobs of the throttled step (a1, a2) and one of another, as the TaskManagers export them. */
    private static List<PrometheusScrape.Sample> jobSamples(double passed) {
        String name = MetricNames.prometheusName(MetricNames.THROTTLE_PASSED);
        return PrometheusScrape.parse(String.join("\n",
                name + "{job_id=\"a1\",job_name=\"volumizer_import_and_index_demo\",subtask_index=\"0\"} " + passed / 2,
                name + "{job_id=\"a2\",job_name=\"volumizer_import_and_index_demo\",subtask_index=\"1\"} " + passed / 2,
                name + "{job_id=\"b\",job_name=\"volumizer_import_demo\",subtask_index=\"0\"} 99999"));
    }

    @Test
    void setsTheLimitFromEachWindowAndExportsItsDecisions() throws Exception {
        try (HoldMetrics metrics = new HoldMetrics(0.05)) {
            HoldLoop loop = started(loop(metrics));

            apiScrapes.add(LatencyHistogramTest.scrape(100, 0, 0, 0)); // all fast
            passedScrapes.add(500.0); // 100 docs/s over the 5 s window: the limit is reached
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.INCREASE);

            apiScrapes.add(LatencyHistogramTest.scrape(150, 50, 0, 0)); // 50 fast, 50 slow: over the target
            passedScrapes.add(1_500.0); // 200 docs/s
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.DECREASE);

            apiScrapes.add(List.of()); // the API did not answer: nothing changes
            passedScrapes.add(1_600.0);
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.HOLD);

            // 150 fast at 140 docs/s; users were comfortable only at 100 before the cut, under it: nothing to climb
            // back to, so a probe, judged on two windows (200 fast, 50 slow: over the target)
            apiScrapes.add(LatencyHistogramTest.scrape(300, 50, 0, 0));
            passedScrapes.add(2_300.0);
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.HOLD);

            apiScrapes.add(LatencyHistogramTest.scrape(400, 50, 0, 0)); // 100 fast: two comfortable windows
            passedScrapes.add(3_000.0); // 140 docs/s
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.INCREASE);

            // doubled in slow start, then 200 docs/s achieved * 0.7, then held, then + 25
            assertThat(limits).containsExactly(100.0, 200.0, 140.0, 165.0);
            assertThat(loop.limit()).isEqualTo(165.0);
            assertThat(metrics.scrape()).contains("volumizer_hold_limit_docs_per_second 165.0",
                    "volumizer_hold_decisions_total{decision=\"decrease\"} 1.0",
                    "volumizer_hold_target_p95_seconds 0.05");
            assertThat(PrometheusScrape.parse(metrics.scrape()).stream().map(PrometheusScrape.Sample::name))
                    .containsAll(MetricNames.holdPrometheusNames());
            assertThat(log.toString(StandardCharsets.UTF_8)).contains("limit 200 -> 140 docs/s (decrease: p95",
                    "the API's metrics did not answer", "over the last 250 requests");
        }
    }

    @Test
    void judgesADecreaseOnItsOwnSpanOfTheLastWindows() throws Exception {
        try (HoldMetrics metrics = new HoldMetrics(0.05)) {
            // probes judged on 3 windows, decreases on 2
            HoldLoop loop = started(loop(metrics, new AimdController(0.05, 25, 0.7, 0.8, 10, 0, 50, 3, 2)));

            apiScrapes.add(LatencyHistogramTest.scrape(100, 0, 0, 0)); // all fast
            passedScrapes.add(500.0);
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.INCREASE);

            // 90 fast, 10 slow: 55 ms, just over; the last two windows (190 fast, 10 slow) under the target
            apiScrapes.add(LatencyHistogramTest.scrape(190, 10, 0, 0));
            passedScrapes.add(1_500.0);
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.HOLD);

            // just over again: the last two windows (180 fast, 20 slow: 55 ms) over too, though the last three
            // (280 fast, 20 slow: 32.5 ms) are not
            apiScrapes.add(LatencyHistogramTest.scrape(280, 20, 0, 0));
            passedScrapes.add(2_500.0);
            assertThat(loop.window().kind()).isEqualTo(AimdController.Kind.DECREASE);
        }
    }

    @Test
    void probesRightAfterSlowStartOnTheWindowsSinceNotOnSlowStartsQuietOnes() throws Exception {
        try (HoldMetrics metrics = new HoldMetrics(0.05)) {
            // probes judged on 6 windows, decreases on 2; headroom 80%: 40 ms
            HoldLoop loop = started(loop(metrics, new AimdController(0.05, 25, 0.7, 0.8, 10, 0, 50, 6, 2)));

            apiScrapes.add(LatencyHistogramTest.scrape(100, 0, 0, 0)); // 9.5 ms: doubled
            passedScrapes.add(500.0);
            apiScrapes.add(LatencyHistogramTest.scrape(200, 0, 0, 0)); // 9.5 ms: doubled
            passedScrapes.add(1_500.0);
            apiScrapes.add(LatencyHistogramTest.scrape(292, 8, 0, 0)); // 43.75 ms: near the target, slow start over
            passedScrapes.add(3_500.0);
            assertThat(List.of(loop.window().kind(), loop.window().kind(), loop.window().kind())).containsExactly(
                    AimdController.Kind.INCREASE, AimdController.Kind.INCREASE, AimdController.Kind.HOLD);

            // 43.75 ms again: over the last four windows together (384 fast, 16 slow) about 10 ms, but two of those
            // are slow start's; the window that ended it and this one (184 fast, 16 slow) are near the target
            apiScrapes.add(LatencyHistogramTest.scrape(384, 16, 0, 0));
            passedScrapes.add(5_500.0);
            AimdController.Decision afterSlowStart = loop.window();
            assertThat(afterSlowStart.kind()).isEqualTo(AimdController.Kind.HOLD);
            assertThat(afterSlowStart.reason()).contains("over the last 200 requests");
            // a quiet window next is judged with those two (284 fast, 16 slow: rank 285, 15.6 ms)
            apiScrapes.add(LatencyHistogramTest.scrape(484, 16, 0, 0));
            passedScrapes.add(7_500.0);
            AimdController.Decision next = loop.window();
            assertThat(next.kind()).isEqualTo(AimdController.Kind.INCREASE);
            assertThat(next.reason()).contains("over the last 300 requests");
        }
    }
}
