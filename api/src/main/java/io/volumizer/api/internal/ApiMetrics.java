package io.volumizer.api.internal;

import java.util.concurrent.TimeUnit;

import io.javalin.Javalin;
import io.javalin.http.Context;
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
import io.volumizer.stores.search.SearchTuning;

/**
 * The API's Prometheus metrics, served at {@link #PATH}: requests by route, method and status (latency
 * histograms), requests in flight and refused per admission class, MongoDB commands and Elasticsearch requests
 * (latency histograms), JVM memory, GC and threads.
 */
public final class ApiMetrics {

    public static final String PATH = "/metrics";
    /** Micrometer names; Prometheus sees them as volumizer_api_requests_seconds_bucket and so on. */
    static final String REQUESTS = "volumizer.api.requests";
    static final String IN_FLIGHT = "volumizer.api.in.flight";
    static final String REFUSED = "volumizer.api.refused";
    static final String ELASTICSEARCH = "volumizer.api.elasticsearch.requests";

    private static final String STARTED = "volumizer.metrics.started";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

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
        Timer timer = histogram(Timer.builder(ELASTICSEARCH)).register(registry);
        return nanos -> timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Requests in flight and refused, per class of {@code admission}. */
    public void watch(Admission admission) {
        for (RequestClass requestClass : RequestClass.values()) {
            Gauge.builder(IN_FLIGHT, () -> admission.inFlight(requestClass))
                    .tag("class", requestClass.name()).register(registry);
            FunctionCounter.builder(REFUSED, admission, a -> a.refused(requestClass))
                    .tag("class", requestClass.name()).register(registry);
        }
    }

    /** Times every request of {@code app} by its route, and serves the metrics at {@link #PATH}. */
    public void install(Javalin app) {
        // Built once: per request only the tags are looked up.
        Meter.MeterProvider<Timer> requests = histogram(Timer.builder(REQUESTS)).withRegistry(registry);
        app.before(ctx -> ctx.attribute(STARTED, System.nanoTime()));
        app.after(ctx -> {
            Long started = ctx.attribute(STARTED);
            if (started != null) {
                requests.withTags("route", route(ctx), "method", ctx.method().name(),
                        "status", Integer.toString(ctx.statusCode()))
                        .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            }
        });
        app.get(PATH, ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape()));
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
