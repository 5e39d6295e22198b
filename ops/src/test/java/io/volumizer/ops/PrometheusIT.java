package io.volumizer.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The local Prometheus server ({@code bin/volumizer up prometheus}) scrapes the JobManager and the TaskManager:
 * their targets are up and Flink's metrics can be queried from it.
 */
class PrometheusIT {

    private static final String PROMETHEUS = System.getProperty("volumizer.prometheus.url");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void scrapesTheFlinkProcessesAndAnswersQueriesOnTheirMetrics() throws Exception {
        Map<String, Long> upTargets = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline
                && !(upTargets.getOrDefault("flink-jobmanager", 0L) == 1 && upTargets.getOrDefault("flink-taskmanager", 0L) >= 1)) {
            upTargets.clear();
            for (JsonNode target : get("/api/v1/targets?state=active").path("data").path("activeTargets")) {
                if (target.path("health").asText().equals("up")) {
                    upTargets.merge(target.path("labels").path("job").asText(), 1L, Long::sum);
                }
            }
            Thread.sleep(1000);
        }
        assertThat(upTargets).as("targets Prometheus scrapes successfully, by job")
                .containsEntry("flink-jobmanager", 1L).containsKey("flink-taskmanager");

        JsonNode slots = get("/api/v1/query?query=" + URLEncoder.encode(
                "sum(flink_jobmanager_taskSlotsTotal)", StandardCharsets.UTF_8)).path("data").path("result");
        assertThat(slots).as("query result").hasSize(1);
        assertThat(slots.get(0).path("value").get(1).asDouble()).as("task slots").isPositive();
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(PROMETHEUS + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
