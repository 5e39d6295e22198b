package io.volumizer.ops.throttle.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.conventions.ApiRouteGroup;

class LatencyHistogramTest {

    /** A scrape of two navigation routes, a search and a write, as the API's registry writes them. */
    static List<PrometheusScrape.Sample> scrape(int children, int slowChildren, int documents, int searches) {
        return PrometheusScrape.parse(String.join("\n",
                "# TYPE volumizer_api_requests_seconds histogram",
                bucket("GET", "/api/v1/{repository}/documents/{id}/children", "0.01", children),
                bucket("GET", "/api/v1/{repository}/documents/{id}/children", "0.1", children + slowChildren),
                bucket("GET", "/api/v1/{repository}/documents/{id}/children", "+Inf", children + slowChildren),
                bucket("GET", "/api/v1/{repository}/documents/{id}", "0.01", documents),
                bucket("GET", "/api/v1/{repository}/documents/{id}", "0.1", documents),
                bucket("GET", "/api/v1/{repository}/documents/{id}", "+Inf", documents),
                bucket("GET", "/api/v1/{repository}/search", "0.01", 0),
                bucket("GET", "/api/v1/{repository}/search", "0.1", 0),
                bucket("GET", "/api/v1/{repository}/search", "+Inf", searches),
                bucket("PUT", "/api/v1/{repository}/documents/{id}", "+Inf", 1000),
                "volumizer_api_requests_seconds_count{method=\"GET\",route=\"/x\",status=\"200\"} 5"));
    }

    private static String bucket(String method, String route, String le, int count) {
        return "volumizer_api_requests_seconds_bucket{method=\"" + method + "\",route=\"" + route
                + "\",status=\"200\",le=\"" + le + "\"} " + count;
    }

    @Test
    void sumsTheGroupsRoutesByUpperBound() {
        LatencyHistogram navigation = LatencyHistogram.of(scrape(90, 10, 100, 7), ApiRouteGroup.NAVIGATION);
        assertThat(navigation.cumulative()).containsEntry(0.01, 190.0).containsEntry(0.1, 200.0)
                .containsEntry(Double.POSITIVE_INFINITY, 200.0);
        assertThat(LatencyHistogram.of(scrape(90, 10, 100, 7), ApiRouteGroup.SEARCH).count()).isEqualTo(7);
        assertThat(LatencyHistogram.of(scrape(90, 10, 100, 7), ApiRouteGroup.READS).count()).isEqualTo(207);
    }

    @Test
    void quantilesInterpolateInsideTheirBucketAsPrometheusDoes() {
        LatencyHistogram navigation = LatencyHistogram.of(scrape(90, 10, 100, 0), ApiRouteGroup.NAVIGATION);
        // rank 190 of 200: the last of the first bucket; rank 195: half-way through (0.01, 0.1]
        assertThat(navigation.quantile(0.95)).isCloseTo(0.01, within(1e-9));
        assertThat(navigation.quantile(0.975)).isCloseTo(0.055, within(1e-9));
        // beyond the largest finite bound: that bound
        assertThat(LatencyHistogram.of(scrape(0, 0, 0, 5), ApiRouteGroup.SEARCH).quantile(0.95)).isEqualTo(0.1);
        assertThat(LatencyHistogram.of(List.of(), ApiRouteGroup.SEARCH).quantile(0.95)).isNaN();
    }

    @Test
    void aWindowIsWhatTwoScrapesDifferBy() {
        LatencyHistogram before = LatencyHistogram.of(scrape(90, 0, 100, 0), ApiRouteGroup.NAVIGATION);
        LatencyHistogram after = LatencyHistogram.of(scrape(100, 40, 110, 0), ApiRouteGroup.NAVIGATION);
        LatencyHistogram window = after.since(before).orElseThrow();
        assertThat(window.count()).isEqualTo(60); // 20 fast, 40 slow
        assertThat(window.quantile(0.95)).isGreaterThan(0.08);
        // counts that went down: the API restarted, no window
        assertThat(before.since(after)).isEmpty();
        // a route first requested after the earlier scrape counts whole
        assertThat(after.since(LatencyHistogram.of(List.of(), ApiRouteGroup.NAVIGATION)).orElseThrow().count()).isEqualTo(250);
    }
}
