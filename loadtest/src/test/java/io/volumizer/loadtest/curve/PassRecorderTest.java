package io.volumizer.loadtest.curve;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.ApiRouteGroup;
import io.volumizer.options.conventions.MetricNames;

class PassRecorderTest {

    private static final Duration WINDOW = Duration.ofMillis(40);

    /** The API's navigation histogram after {@code requests} fast requests. */
    private static List<PrometheusScrape.Sample> api(int requests) {
        String bucket = MetricNames.apiRequestBuckets() + "{method=\"GET\",route=\"/api/v1/{repository}/documents/{id}\",le=\"";
        return PrometheusScrape.parse(bucket + "0.01\"} " + requests + "\n" + bucket + "+Inf\"} " + requests);
    }

    /** The import's two subtasks with this lag each. */
    private static List<PrometheusScrape.Sample> jobs(String pending) {
        return PrometheusScrape.parse(String.join("\n", ImportLagTest.pending("import", 0, pending),
                ImportLagTest.pending("import", 1, pending)));
    }

    /** A pass whose every reading has 100 more requests and the import's lag {@code pending}, until finished. */
    private static PassRecorder.Measured pass(boolean importReads, String pending) throws Exception {
        AtomicInteger readings = new AtomicInteger();
        PassRecorder recorder = new PassRecorder(() -> api(100 * readings.incrementAndGet()), () -> jobs(pending),
                ApiRouteGroup.NAVIGATION, Set.of("import"), importReads, WINDOW, 50);
        try {
            recorder.start();
            Thread.sleep(WINDOW.toMillis() * 5);
            return recorder.finish();
        } finally {
            recorder.close();
        }
    }

    @Test
    void countsTheWindowsThatEndWithTheImportCaughtUp() throws Exception {
        PassRecorder.Measured dry = pass(true, "0.0");
        assertThat(dry.windowP95s()).isNotEmpty();
        assertThat(dry.dryWindows()).isEqualTo(dry.windowP95s().size());
        assertThat(dry.ranDry()).isTrue();

        PassRecorder.Measured reading = pass(true, "5000.0");
        assertThat(reading.windowP95s()).isNotEmpty();
        assertThat(reading.ranDry()).isFalse();
    }

    @Test
    void aPausedPassNeverRunsDry() throws Exception {
        PassRecorder.Measured paused = pass(false, "0.0"); // a paused source's lag is the last it fetched
        assertThat(paused.windowP95s()).isNotEmpty();
        assertThat(paused.ranDry()).isFalse();
    }
}
