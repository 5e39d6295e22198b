package io.volumizer.api.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.mongodb.MongoMetricsCommandListener;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.volumizer.api.internal.Admission.RequestClass;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.stores.search.SearchTuning;

/**
 * The API's Prometheus metrics, served at {@link #PATH} on the management port: requests by route, method and status (latency
 * histograms), requests in flight and refused per admission class, the reads' grants applied by route, MongoDB
 * commands and Elasticsearch requests (latency histograms), failed authentications and penalised ones, JVM memory, GC and threads. The names are
 * {@link MetricNames}' (the dashboard's).
 */
public final class ApiMetrics {

    public static final String PATH = "/metrics";

    private static final String STARTED = "volumizer.metrics.started";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Meter.MeterProvider<Counter> readGrants = Counter.builder(MetricNames.API_READ_GRANTS).withRegistry(registry);
    private final Counter authenticationFailures = Counter.builder(MetricNames.API_AUTHENTICATION_FAILURES).register(registry);
    private final Counter authenticationPenalties = Counter.builder(MetricNames.API_AUTHENTICATION_PENALTIES).register(registry);

    public ApiMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
    }

    /** For the MongoDB client's settings: every command's latency, by command and outcome. */
    public MongoMetricsCommandListener mongoCommands() {
        return new MongoMetricsCommandListener(registry);
    }

    /** For the search engine's tuning: every request's latency. */
    public SearchTuning.RequestTimer searchRequests() {
        Timer timer = histogram(Timer.builder(MetricNames.API_ELASTICSEARCH_REQUESTS)).register(registry);
        return nanos -> timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Requests in flight and refused, per class of {@code admission}. */
    public void watch(Admission admission) {
        for (RequestClass requestClass : RequestClass.values()) {
            Gauge.builder(MetricNames.API_IN_FLIGHT, () -> admission.inFlight(requestClass))
                    .tag(MetricNames.CLASS_LABEL, requestClass.name()).register(registry);
            FunctionCounter.builder(MetricNames.API_REFUSED, admission, a -> a.refused(requestClass))
                    .tag(MetricNames.CLASS_LABEL, requestClass.name()).register(registry);
        }
    }

    /** Counts a read's grant applied on {@code route} (its template) to a search or to a document. */
    public void readGranted(String route, String appliedTo) {
        readGrants.withTags(MetricNames.ROUTE_LABEL, route, MetricNames.APPLIED_LABEL, appliedTo).increment();
    }

    /** Counts a request refused for want of a valid token. */
    public void authenticationFailed() {
        authenticationFailures.increment();
    }

    /** Counts a request refused, its token unread, inside its address's penalty window. */
    public void authenticationPenalised() {
        authenticationPenalties.increment();
    }

    /** Times every request of {@code app} by its route. */
    public void install(Javalin app) {
        // Built once: per request only the tags are looked up.
        Meter.MeterProvider<Timer> requests = histogram(Timer.builder(MetricNames.API_REQUESTS)).withRegistry(registry);
        app.before(ctx -> ctx.attribute(STARTED, System.nanoTime()));
        app.after(ctx -> {
            Long started = ctx.attribute(STARTED);
            if (started != null) {
                requests.withTags(MetricNames.ROUTE_LABEL, route(ctx), MetricNames.METHOD_LABEL, ctx.method().name(),
                        MetricNames.STATUS_LABEL, Integer.toString(ctx.statusCode()))
                        .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
        });
    }

    /**
     * Serves the metrics at {@link #PATH} of {@code management}, to a scraper that presents {@code scrapeToken} as its
     * bearer token, or to anyone that reaches the port when it is null (locally, where the port is on loopback).
     */
    public void serve(Javalin management, String scrapeToken) {
        byte[] expected = scrapeToken == null || scrapeToken.isEmpty() ? null
                : ("Bearer " + scrapeToken).getBytes(StandardCharsets.UTF_8);
        management.get(PATH, ctx -> {
            String presented = ctx.header("Authorization");
            if (expected != null && (presented == null
                    || !MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8)))) {
                ctx.header("WWW-Authenticate", "Bearer realm=\"metrics\"").status(401)
                        .result("the scraper's bearer token ($VOLUMIZER_METRICS_TOKEN) is needed");
                return;
            }
            ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(scrape());
        });
    }

    /** Every meter, as Prometheus reads them. */
    String scrape() {
        return registry.scrape();
    }

    /** The route template (/api/v1/{repository}/documents/{id}), never the path: ids would explode the series. */
    private static String route(Context ctx) {
        try {
            return ctx.endpointHandlerPath();
        } catch (IllegalStateException | IllegalArgumentException noEndpoint) {
            return "unmatched";
        }
    }

    /** Buckets Prometheus can compute any quantile from (histogram_quantile), as for requests across replicas. */
    private static Timer.Builder histogram(Timer.Builder timer) {
        return timer.publishPercentileHistogram().minimumExpectedValue(java.time.Duration.ofMillis(1))
                .maximumExpectedValue(java.time.Duration.ofSeconds(30));
    }
}
