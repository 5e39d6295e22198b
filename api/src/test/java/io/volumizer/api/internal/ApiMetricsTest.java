package io.volumizer.api.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.javalin.Javalin;
import io.volumizer.api.internal.Admission.RequestClass;
import io.volumizer.options.conventions.MetricNames;

/**
 * The API's meters under the names MetricNames gives Prometheus' (which the chart's dashboard is checked against):
 * every meter registered and a request served, then scraped.
 */
class ApiMetricsTest {

    @Test
    void theApisMetersScrapeToExactlyMetricNamesApiNames() throws Exception {
        ApiMetrics metrics = new ApiMetrics();
        metrics.watch(new Admission(Arrays.stream(RequestClass.values()).collect(Collectors.toMap(c -> c, c -> 1)),
                Duration.ZERO, 75, ctx -> "alice"));
        metrics.searchRequests();
        metrics.readGranted("/api/v1/search", "search");
        metrics.authenticationFailed();
        metrics.authenticationPenalised();
        Javalin app = Javalin.create();
        metrics.install(app);
        metrics.serve(app, null);
        app.start("127.0.0.1", 0);
        try {
            HttpResponse<String> served = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + app.port() + ApiMetrics.PATH)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(served.statusCode()).isEqualTo(200);
        } finally {
            app.stop();
        }

        Set<String> scraped = metrics.scrape().lines().filter(line -> !line.startsWith("#"))
                .map(line -> line.split("[{ ]")[0]).filter(name -> name.startsWith("volumizer_"))
                .collect(Collectors.toSet());
        assertThat(scraped).isEqualTo(MetricNames.apiPrometheusNames());
        assertThat(metrics.scrape()).contains(MetricNames.ROUTE_LABEL + "=\"" + ApiMetrics.PATH + "\"",
                MetricNames.METHOD_LABEL + "=\"GET\"", MetricNames.STATUS_LABEL + "=\"200\"",
                MetricNames.CLASS_LABEL + "=\"reads\"");
    }
}
