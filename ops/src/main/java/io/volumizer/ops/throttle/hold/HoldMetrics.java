package io.volumizer.ops.throttle.hold;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.volumizer.options.conventions.MetricNames;

/**
 * The hold controller's meters ({@link MetricNames#holdPrometheusNames()}), served for Prometheus at
 * {@code /metrics} of a port of its own, so that the dashboard draws its limit beside the users' p95 and the jobs'
 * achieved rate.
 */
public final class HoldMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<AimdController.Kind, Counter> decisions = new EnumMap<>(AimdController.Kind.class);
    private volatile double limit = Double.NaN;
    private volatile double achieved = Double.NaN;
    private volatile double observedP95 = Double.NaN;
    private HttpServer server;

    public HoldMetrics(double targetSeconds) {
        Gauge.builder(MetricNames.HOLD_LIMIT, () -> limit).register(registry);
        Gauge.builder(MetricNames.HOLD_ACHIEVED, () -> achieved).register(registry);
        Gauge.builder(MetricNames.HOLD_OBSERVED_P95, () -> observedP95).register(registry);
        Gauge.builder(MetricNames.HOLD_TARGET_P95, () -> targetSeconds).register(registry);
        for (AimdController.Kind kind : AimdController.Kind.values()) {
            decisions.put(kind, Counter.builder(MetricNames.HOLD_DECISIONS)
                    .tag(MetricNames.DECISION_LABEL, kind.name().toLowerCase(Locale.ROOT)).register(registry));
        }
    }

    /** Serves the meters at {@code http://0.0.0.0:port/metrics}; 0: not served. */
    public HoldMetrics serve(int port) throws IOException {
        if (port > 0) {
            server = HttpServer.create(new InetSocketAddress(port), 0);
            server.createContext("/metrics", exchange -> {
                byte[] body = scrape().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }
        return this;
    }

    void limit(double docsPerSecond) {
        limit = docsPerSecond;
    }

    void window(AimdController.Decision decision, double p95Seconds, double achievedDocsPerSecond) {
        decisions.get(decision.kind()).increment();
        limit = decision.limit();
        observedP95 = p95Seconds;
        achieved = achievedDocsPerSecond;
    }

    String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
        registry.close();
    }
}
