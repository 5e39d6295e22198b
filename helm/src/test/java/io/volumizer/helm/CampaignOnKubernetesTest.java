package io.volumizer.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.campaigns.CampaignCommand;
import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignFile;
import io.volumizer.campaigns.file.CampaignStep;
import io.volumizer.campaigns.file.StepSpec;
import io.volumizer.options.steps.GenerateOptions;
import io.volumizer.options.steps.Step;

/**
 * A campaign rendered for the chart ({@code bin/volumizer campaign render}), step by step: each step's values file
 * rendered by helm over the chart's defaults and validated strictly as the chart's profiles are, every FlinkDeployment
 * read by the operator's classes and its job's options; during an import the generator adds the customers after the
 * previous import's, beside the import and index running; between imports they are suspended and no generator runs;
 * a reindex is the API's command, its FlinkSessionJob valid on the chart's session cluster. No cluster is reachable
 * here: what is tested is what the chart renders, not what a cluster does with it.
 */
class CampaignOnKubernetesTest {

    @ParameterizedTest
    @ValueSource(strings = {"smoke.yaml", "growth.yaml"})
    void everyStepOfTheCampaignRendersValidResourcesOfItsJobs(String name, @TempDir Path out) throws Exception {
        Path file = Path.of("../campaigns").resolve(name);
        StringWriter err = new StringWriter();
        int exit = CampaignCommand.commandLine().setErr(new PrintWriter(err))
                .execute("render", file.toString(), "--out", out.toString());
        assertThat(exit).as("campaign render %s: %s", name, err).isZero();
        Campaign campaign = CampaignFile.load(file);
        String readme = Files.readString(out.resolve("README.md"));

        long nextCustomer = 0;
        boolean imported = false;
        int readmeAt = 0;
        for (CampaignStep step : campaign.steps()) {
            Path values = out.resolve(step.key() + ".yaml");
            readmeAt = readme.indexOf("-f " + values.getFileName(), readmeAt);
            assertThat(readmeAt).as("README.md applies %s after the steps before it", values.getFileName()).isPositive();
            List<JsonNode> resources = HelmChartTest.render("", "-f", values.toString());
            HelmChartTest.assertValidates(String.join("\n---\n", resources.stream().map(JsonNode::toString).toList()),
                    step.key());
            HelmChartTest.assertFlinkDeploymentsAreWhatTheOperatorAndTheJobsReadThem(resources, campaign.repository(),
                    step.key());
            Map<String, JsonNode> jobs = stepDeployments(resources);
            boolean importing = step.spec() instanceof StepSpec.Import;
            imported |= importing;
            assertThat(jobs.keySet()).as("%s's steps", step.key()).containsExactlyElementsOf(
                    importing ? List.of("generate", "import", "index") : imported ? List.of("import", "index") : List.of());
            for (String running : List.of("import", "index")) {
                if (imported) {
                    assertThat(jobs.get(running).path("spec").path("job").path("state").asText()).as("%s: %s", step.key(),
                            running).isEqualTo(importing ? "running" : "suspended");
                }
            }
            if (step.spec() instanceof StepSpec.Import spec) {
                GenerateOptions generate = (GenerateOptions) Step.GENERATE.parse(args(jobs.get("generate")));
                assertThat(generate.fromCustomer).as("%s: the customers after the previous import's", step.key())
                        .isEqualTo(nextCustomer);
                assertThat(generate.settings().repository()).isEqualTo(campaign.repository());
                assertThat(generate.maxDocsPerSecond).isEqualTo(spec.docsPerSecond());
                nextCustomer = generate.endCustomer();
                if (spec.to().documents() == campaign.largestSize()) {
                    assertThat(nextCustomer).as("the largest import generates the run's last customer")
                            .isEqualTo(generate.run.customers);
                }
            } else if (step.spec() instanceof StepSpec.Reindex) {
                HelmChartTest.assertReindexCommandRuns(resources, campaign.repository(), List.of());
                assertThat(readme).contains("/api/v1/" + campaign.repository() + "/reindex");
            }
        }
    }

    /** The FlinkDeployments that run a step's job, by the step, in its name's order. */
    private static Map<String, JsonNode> stepDeployments(List<JsonNode> resources) {
        Map<String, JsonNode> steps = new TreeMap<>();
        for (JsonNode resource : resources) {
            JsonNode step = resource.path("metadata").path("labels").path("volumizer.io/step");
            if ("FlinkDeployment".equals(resource.path("kind").asText()) && !step.isMissingNode()) {
                assertThat(steps.put(step.asText(), resource)).as("one deployment of step %s", step.asText()).isNull();
            }
        }
        return steps;
    }

    private static List<String> args(JsonNode deployment) {
        List<String> args = new ArrayList<>();
        deployment.path("spec").path("job").path("args").forEach(arg -> args.add(arg.asText()));
        return args;
    }
}
