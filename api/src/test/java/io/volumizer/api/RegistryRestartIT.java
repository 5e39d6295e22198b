package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.registry.SchemaRegistryClient;

/**
 * The registry restarted while the API writes, in the chart's configuration (schemas kept in Kafka, as the local
 * registry keeps them): the schema id the API cached before the restart is still the registry's after it, so that
 * a reader that never saw it (a restarted import, another replica) decodes those writes, and every write answered
 * 202 lands.
 */
class RegistryRestartIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static LocalPipeline pipeline;
    private static LocalApi api;

    @BeforeAll
    static void pipelineAndApi() throws Exception {
        pipeline = new LocalPipeline("registry", 11, 2, 1);
        api = pipeline.api();
        pipeline.awaitIndexed(api.base);
    }

    @AfterAll
    static void close() throws Exception {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void everyWriteAnsweredAcceptedAroundARegistryRestartLandsAndItsSchemaIdSurvives() throws Exception {
        String account = pipeline.generated.stream().filter(d -> d.getType().equals("Account")).findFirst()
                .orElseThrow().getId();
        List<String> accepted = new ArrayList<>(write(account, "before"));
        int cachedId = AvroCodec.forSpecific(new SchemaRegistryClient(LocalPipeline.REGISTRY),
                AvroCodec.valueSubject(pipeline.documentsTopic()), DocumentEvent.class).schemaId();

        LocalServices services = LocalServices.ofThisCheckout();
        services.stop("registry");
        services.start("registry");

        assertThat(new SchemaRegistryClient(LocalPipeline.REGISTRY).schemaById(cachedId))
                .as("a client that never saw the id, after the restart").isEqualTo(DocumentEvent.getClassSchema());
        accepted.addAll(write(account, "after"));
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        List<String> missing = new ArrayList<>(accepted);
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            missing.removeIf(id -> status(id) == 200);
            Thread.sleep(500);
        }
        assertThat(missing).as("writes answered 202 that never landed").isEmpty();
    }

    /** Five notes under {@code account}, each answered 202; their ids. */
    private static List<String> write(String account, String when) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(api.base + documents()))
                    .header("Authorization", "Bearer " + Tokens.service()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"parentId\":\"" + account + "\",\"type\":\"Note\","
                            + "\"name\":\"" + when + "-" + i + "-" + pipeline.run + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
            ids.add(JSON.readTree(created.body()).path("id").asText());
        }
        return ids;
    }

    private static int status(String id) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(api.base + documents() + "/" + id))
                    .header("Authorization", "Bearer " + Tokens.service()).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return 0;
        }
    }

    private static String documents() {
        return "/api/v1/" + pipeline.repository + "/documents";
    }
}
