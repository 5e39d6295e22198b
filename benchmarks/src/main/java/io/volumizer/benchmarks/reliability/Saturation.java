package io.volumizer.benchmarks.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

import org.apache.http.HttpHost;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NByteArrayEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

/**
 * Other clients' bulk writes, as many at once as keep a small write queue full: Elasticsearch answers them, and the
 * pipeline's, with 429 while it lasts. Into an index of their own, deleted afterwards.
 */
final class Saturation {

    private static final int CLIENTS = 8;
    /** Outside every repository's prefix (IndexNames.DEFAULT_PREFIX), so no repository template or pattern takes it. */
    private static final String INDEX = "bench-saturation";

    private Saturation() {
    }

    /** Saturates for {@code duration}; returns how many of its own requests were rejected (429). */
    static long run(String url, Duration duration) throws Exception {
        byte[] body = bulkBody();
        LongAdder rejected = new LongAdder();
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try (RestClient client = RestClient.builder(HttpHost.create(url)).build()) {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                running.add(clients.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        Request request = new Request("POST", "/" + INDEX + "/_bulk");
                        request.addParameter("filter_path", "errors");
                        request.setEntity(new NByteArrayEntity(body, ContentType.create("application/x-ndjson",
                                StandardCharsets.UTF_8)));
                        try {
                            String answer = new String(client.performRequest(request).getEntity().getContent()
                                    .readAllBytes(), StandardCharsets.UTF_8);
                            if (answer.contains("true")) {
                                rejected.increment();
                            }
                        } catch (ResponseException e) {
                            rejected.increment();
                        } catch (Exception e) {
                            // Elasticsearch busy beyond answering: keep going until the time is up
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client1 : running) {
                client1.get();
            }
            client.performRequest(new Request("DELETE", "/" + INDEX));
        } finally {
            clients.shutdownNow();
        }
        return rejected.sum();
    }

    private static byte[] bulkBody() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 1_000; i++) {
            body.append("{\"index\":{}}\n{\"n\":").append(i).append(",\"text\":\"saturating the write queue\"}\n");
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
