package io.volumizer.infra.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

class HostBoundPrometheusReporterTest {

    @Test
    void servesFlinksMetricsOnTheGivenHostAndTakesTheNextFreePortOfItsRange() throws Exception {
        int first = freePort();
        HostBoundPrometheusReporter jobManager = open("127.0.0.1", first + "-" + (first + 5));
        HostBoundPrometheusReporter taskManager = open("127.0.0.1", first + "-" + (first + 5));
        try {
            SimpleCounter written = new SimpleCounter();
            written.inc(3);
            taskManager.notifyOfAddedMetric(written, "written", new Group());

            assertThat(jobManager.port()).isEqualTo(first);
            assertThat(taskManager.port()).isGreaterThan(first);
            assertThat(scrape(taskManager.port())).contains("flink_volumizer_written{stage=\"import\",} 3.0");
        } finally {
            taskManager.close();
            jobManager.close();
        }
    }

    @Test
    void isNotReachableOnThisMachinesOtherAddresses() throws Exception {
        Optional<InetAddress> external = NetworkInterface.networkInterfaces()
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
                .findFirst();
        HostBoundPrometheusReporter reporter = open("127.0.0.1", Integer.toString(freePort()));
        try {
            assertThat(scrape(reporter.port())).isNotNull();
            if (external.isPresent()) {
                assertThatThrownBy(() -> new Socket(external.get(), reporter.port()).close())
                        .isInstanceOf(ConnectException.class);
            }
        } finally {
            reporter.close();
        }
    }

    @Test
    void saysWhichRangeIsTakenWhenNoPortIsFree() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            String range = Integer.toString(taken.getLocalPort());
            assertThatThrownBy(() -> open("127.0.0.1", range))
                    .hasMessageContaining("127.0.0.1:" + range).hasMessageContaining("every port is taken");
        }
    }

    private static HostBoundPrometheusReporter open(String host, String ports) {
        MetricConfig config = new MetricConfig();
        config.setProperty(HostBoundPrometheusReporter.HOST, host);
        config.setProperty(HostBoundPrometheusReporter.PORT, ports);
        HostBoundPrometheusReporter reporter = new HostBoundPrometheusReporter();
        reporter.open(config);
        return reporter;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String scrape(int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** An operator's "volumizer" group with a stage label, as the jobs register theirs. */
    private static final class Group extends UnregisteredMetricsGroup implements LogicalScopeProvider {
        @Override
        public Map<String, String> getAllVariables() {
            return Map.of("<stage>", "import");
        }

        @Override
        public String getLogicalScope(CharacterFilter filter) {
            return "volumizer";
        }

        @Override
        public String getLogicalScope(CharacterFilter filter, char delimiter) {
            return "volumizer";
        }

        @Override
        public MetricGroup getWrappedMetricGroup() {
            return this;
        }
    }
}
