package io.volumizer.infra.flink;

import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.util.Iterator;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.prometheus.AbstractPrometheusReporter;
import org.apache.flink.util.NetUtils;

/**
 * Flink's Prometheus reporter serving on one host (loopback on a developer's machine) instead of every interface:
 * Flink's {@code PrometheusReporter} (1.20 as 2.2) binds the wildcard address and has no setting for it. Metric names,
 * labels and the registry are Flink's own; only the listening address differs.
 */
public final class HostBoundPrometheusReporter extends AbstractPrometheusReporter {

    /** The reporter's settings, as {@code metrics.reporter.<name>.host} and {@code .port} (a port or a range). */
    static final String HOST = "host";
    static final String PORT = "port";

    private HTTPServer server;
    private int port;

    @Override
    public void open(MetricConfig config) {
        super.open(config);
        String host = config.getString(HOST, "127.0.0.1");
        String ports = config.getString(PORT, "9249");
        for (Iterator<Integer> candidates = NetUtils.getPortRangeFromString(ports); candidates.hasNext(); ) {
            int candidate = candidates.next();
            try {
                server = new HTTPServer(new InetSocketAddress(host, candidate), registry(), true);
                port = candidate;
                log.info("Serving Prometheus metrics on {}:{}", host, candidate);
                return;
            } catch (IOException e) {
                log.debug("Port {} of {} is taken", candidate, host, e);
            }
        }
        throw new IllegalStateException("Could not serve Prometheus metrics on " + host + ":" + ports
                + ": every port is taken (set metrics.reporter.<name>.port to a free range)");
    }

    /** The port this reporter serves on, once open. */
    int port() {
        return port;
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop();
        }
        super.close();
    }

    /** The registry Flink's base class fills; it is package-private there, hence reflection. */
    private CollectorRegistry registry() {
        try {
            Field registry = AbstractPrometheusReporter.class.getDeclaredField("registry");
            registry.setAccessible(true);
            return (CollectorRegistry) registry.get(this);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Flink version's Prometheus reporter keeps its registry elsewhere", e);
        }
    }
}
