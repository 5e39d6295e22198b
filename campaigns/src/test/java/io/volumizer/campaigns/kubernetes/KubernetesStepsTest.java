package io.volumizer.campaigns.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.campaigns.file.CampaignException;
import io.volumizer.campaigns.file.CampaignFile;
import io.volumizer.campaigns.kubernetes.KubernetesSteps.KubernetesStep;

/**
 * The steps that are actions on Kubernetes rather than the chart's values (its rendering is HelmChartTest's, in the
 * helm module): a Flink pod killed is a kubectl deletion, a fault of a service the chart does not deploy is refused
 * with its line, and two imports in a row deploy the generator anew.
 */
class KubernetesStepsTest {

    @Test
    void aKilledFlinkPodIsAKubectlDeletionOfItsPods() {
        List<KubernetesStep> steps = KubernetesSteps.of(CampaignFile.parse("faults.yaml", """
                name: faults
                steps:
                  - import: {to: 100}
                  - fault: {kill: flink-taskmanager}
                  - fault: {kill: flink-jobmanager}
                """));
        assertThat(steps.get(1).actions()).last().asString()
                .startsWith("kubectl delete pod").contains("-l type=flink-native-kubernetes,component=taskmanager");
        assertThat(steps.get(2).actions()).last().asString().contains("component=jobmanager");
        assertThat(steps.get(1).values().get("steps")).asString().contains("import={enabled=true, state=suspended}");
    }

    @Test
    void aFaultOfAServiceTheChartDoesNotDeployIsRefusedWithItsLine() {
        assertThatThrownBy(() -> KubernetesSteps.of(CampaignFile.parse("faults.yaml", """
                name: faults
                steps:
                  - import: {to: 100}
                  - fault: {down: mongodb, for: 30s}
                """))).isInstanceOf(CampaignException.class)
                .hasMessageStartingWith("faults.yaml:4: fault: 002-fault-100 on Kubernetes: 'mongodb' is not deployed");
        assertThatThrownBy(() -> KubernetesSteps.of(CampaignFile.parse("faults.yaml", """
                name: faults
                steps:
                  - import: {to: 100}
                  - fault: {down: flink-taskmanager, for: 30s}
                """))).isInstanceOf(CampaignException.class).hasMessageContaining("use `kill: flink-taskmanager`");
    }

    @Test
    void twoImportsInARowDeployTheGeneratorAnew() {
        List<KubernetesStep> steps = KubernetesSteps.of(CampaignFile.parse("imports.yaml", """
                name: imports
                steps:
                  - import: {to: 100}
                  - import: {to: 200}
                """));
        assertThat(steps.get(0).actions().get(0)).endsWith("-f 001-import-100.yaml");
        assertThat(steps.get(1).actions().subList(0, 2)).containsExactly(
                "helm upgrade --install \"$RELEASE\" helm/volumizer -n \"$NAMESPACE\" -f \"$SERVICES\" -f 002-import-200.yaml"
                        + " --set steps.generate.enabled=false",
                "helm upgrade --install \"$RELEASE\" helm/volumizer -n \"$NAMESPACE\" -f \"$SERVICES\" -f 002-import-200.yaml");
        assertThat(generateArgument(steps.get(1), "--from-customer"))
                .isEqualTo(generateArgument(steps.get(0), "--to-customer")).isNotEqualTo("0");
    }

    private static String generateArgument(KubernetesStep step, String option) {
        List<?> args = (List<?>) ((Map<?, ?>) ((Map<?, ?>) step.values().get("steps")).get("generate")).get("args");
        return (String) args.get(args.indexOf(option) + 1);
    }
}
