package io.volumizer.api.commands.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Sorts;

import io.volumizer.api.ApiOptions;
import io.volumizer.api.ApiServer;
import io.volumizer.api.commands.Commands;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.options.Options;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.commands.CommandStore.State;
import io.volumizer.stores.commands.EmittedUntil;

/**
 * {@code GET /api/v1/bulk/{commandId}} reads a command's record and writes nothing, even for a command that a
 * reconciliation would move on: a bulk command whose changes wait for the imports, whose progress no round has
 * recorded yet. The API's routes are served without the reconciler that the servers' lifecycle runs, so whatever
 * changed the record would be the reads'.
 */
class CommandStatusReadIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int READS = 5;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private ApiOptions options;
    private Backends backends;
    private ApiServer.Servers servers;
    private MongoCollection<Document> records;

    @BeforeEach
    void routesWithoutTheReconciler(@TempDir Path blobs) throws Exception {
        options = Options.parseWithOverrides(new ApiOptions(), List.of("--oidc-issuer", Tokens.ISSUER.toString(),
                "--port", "0", "--metrics-port", "0", "--bootstrap-servers", LocalPipeline.KAFKA,
                "--registry-url", LocalPipeline.REGISTRY, "--mongodb-uri", LocalPipeline.MONGODB,
                "--mongodb-database", "it_" + run, "--search-url", LocalPipeline.SEARCH, "--index-prefix", "it-" + run + "-",
                "--documents-topic", "it." + run + ".documents", "--blob-store", blobs.toString(),
                "--flink-rest", LocalPipeline.FLINK, "--jobs-jar", JobsJar.path().toString()));
        backends = options.openBackends();
        servers = ApiServer.create(options, backends);
        servers.api().start("127.0.0.1", 0);
        records = backends.mongo.shared().getCollection(CommandStore.COLLECTION);
    }

    @AfterEach
    void stop() throws Exception {
        servers.api().stop();
        backends.mongo.shared().drop();
        backends.close();
    }

    @Test
    void aStatusReadLeavesTheCommandStoreUnchanged() throws Exception {
        String commandId = "bulk-status-read-" + run;
        CommandStore store = new CommandStore(backends.mongo.shared());
        store.createIfAbsent(commandId, BulkUpdateOptions.Action.delete.name(), "status" + run, new Document());
        // Its job emitted every change up to offsets no import has read: a reconciliation records the imports' progress.
        store.state(commandId, State.APPLYING, new EmittedUntil(options.documents.topic(),
                Map.of(0, 1_000_000L)).recorded());
        List<String> before = snapshot();

        for (int read = 0; read < READS; read++) {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + servers.api().port() + "/api/v1/bulk/" + commandId)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + Tokens.service()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            JsonNode status = JSON.readTree(answer.body());
            assertThat(status.path("state").asText()).isEqualTo(State.APPLYING.name());
            Thread.sleep(300);
        }
        assertThat(snapshot()).as("the command store after " + READS + " status reads").isEqualTo(before);

        // The record is one a reconciliation does move on: the reads above could have written.
        new Commands(new FlinkSessionClient(options.flink.rest), options.jobsJar, backends.mongo, backends.searchEngine,
                options.indices(), options.jobArguments(), options.kafka.clientProperties()).reconciler().reconcile(commandId);
        assertThat(snapshot()).as("the command store after a reconciliation").isNotEqualTo(before);
    }

    /** Every record of the command store, as extended JSON, in id order. */
    private List<String> snapshot() {
        return records.find().sort(Sorts.ascending(CommandStore.ID)).map(Document::toJson).into(new ArrayList<>());
    }
}
