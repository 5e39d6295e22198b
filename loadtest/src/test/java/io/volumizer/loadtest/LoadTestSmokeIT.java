package io.volumizer.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import picocli.CommandLine;

/**
 * The smoke simulation (navigation, search and CRUD at a low rate for a few seconds) through the load-test
 * runner, against the API on a small repository the real pipeline imported: the simulations, their feeders
 * and the summary work on a live stack. No latency is asserted here; that is what the load tests measure.
 */
class LoadTestSmokeIT {

    @Test
    void smokeSimulationRunsWithoutErrorsAndIsSummarized() throws Exception {
        try (LocalPipeline pipeline = new LocalPipeline("smoke", 4, 4, 6);
                LocalApi api = new LocalApi(pipeline.apiOptions())) {
            pipeline.awaitIndexed(api.base);
            Path results = Path.of("target/loadtest-results");
            int exit = new CommandLine(new LoadTestRunner()).execute("smoke", "--rate", "3", "--duration", "5",
                    "--ramp", "1", "--max-error-percent", "0", "--api", api.base, "--oidc-issuer", Tokens.ISSUER.toString(),
                    "--repository", pipeline.repository, "--seed", "4", "--customers", "4",
                    "--statements-per-account", "6", "--label", pipeline.run, "--results", results.toString());
            assertThat(exit).as("Gatling assertions (no failed request)").isZero();

            JsonNode summary = new ObjectMapper().readTree(results.resolve("smoke-" + pipeline.run + ".json").toFile());
            JsonNode requests = summary.path("requests");
            assertThat(requests.path(Report.ALL).path("failed").asLong()).isZero();
            for (String request : java.util.List.of("get document", "children", "ancestors", "get parent")) {
                assertThat(requests.path(request).path("count").asLong()).as(request).isPositive();
            }
            assertThat(requests.fieldNames()).toIterable().anyMatch(name -> name.startsWith("search"))
                    .anyMatch(name -> name.startsWith("create"));
            assertThat(requests.path(Report.ALL).path("p95").asLong()).isPositive();
        }
    }
}
