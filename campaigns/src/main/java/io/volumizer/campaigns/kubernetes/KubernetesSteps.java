package io.volumizer.campaigns.kubernetes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.volumizer.harness.ServiceFaults;
import io.volumizer.campaigns.file.Campaign;
import io.volumizer.campaigns.file.CampaignException;
import io.volumizer.campaigns.file.CampaignStep;
import io.volumizer.campaigns.file.StepSpec;
import io.volumizer.campaigns.run.CampaignGeneration;
import io.volumizer.options.steps.Step;

/**
 * A campaign as the chart (helm/volumizer) runs it: for each step, the chart's values during the step (applied by a
 * {@code helm upgrade} over the user's own values) and what to do once they are applied. An import is the chart's
 * generate deployment for the import's customers (the generator's options the local runner gives its generate job)
 * beside the import and index deployments; after it, those are suspended with savepoints, as the local runner stops
 * its jobs. A reindex is the API's command (a FlinkSessionJob on the chart's session cluster). A measure and a fault
 * are actions of the user's: the chart runs no load generator, and a Flink pod killed is a {@code kubectl delete}.
 * A fault of a service the chart does not deploy (Kafka, MongoDB, the search engine are managed services) is refused.
 */
public final class KubernetesSteps {

    /** The pods' labels Flink's native Kubernetes integration gives a cluster's JobManagers and TaskManagers. */
    private static final Map<String, String> FLINK_PODS = Map.of(ServiceFaults.TASKMANAGER, "taskmanager",
            ServiceFaults.JOBMANAGER, "jobmanager");

    /**
     * One step on Kubernetes.
     *
     * @param values  the chart's values during the step, over the user's (a later {@code -f} wins)
     * @param actions what to do, in order, each a line of shell or of prose; the first applies the values
     */
    public record KubernetesStep(CampaignStep step, Map<String, Object> values, List<String> actions) {

        /** The values file's name: the step's key ({@code 001-import-1M.yaml}). */
        public String valuesFile() {
            return valuesFile(step);
        }

        private static String valuesFile(CampaignStep step) {
            return step.key() + ".yaml";
        }
    }

    private final Campaign campaign;
    private final CampaignGeneration generation;

    private KubernetesSteps(Campaign campaign) {
        this.campaign = campaign;
        this.generation = new CampaignGeneration(campaign);
    }

    /** @throws CampaignException naming the step (its line) that has no counterpart on Kubernetes */
    public static List<KubernetesStep> of(Campaign campaign) {
        return new KubernetesSteps(campaign).steps();
    }

    private List<KubernetesStep> steps() {
        List<KubernetesStep> steps = new ArrayList<>();
        boolean imported = false;
        boolean generating = false;
        for (CampaignStep step : campaign.steps()) {
            List<String> actions = new ArrayList<>();
            StepSpec spec = step.spec();
            boolean importing = spec instanceof StepSpec.Import;
            String upgrade = "helm upgrade --install \"$RELEASE\" helm/volumizer -n \"$NAMESPACE\" -f \"$SERVICES\" -f "
                    + KubernetesStep.valuesFile(step);
            if (importing && generating) {
                // the generator just finished stays deployed, its job done: the next customers are a new deployment
                actions.add(upgrade + " --set steps." + Step.GENERATE.id() + ".enabled=false");
            }
            actions.add(upgrade);
            if (spec instanceof StepSpec.Import importStep) {
                actions.addAll(importActions(step, importStep));
            } else if (spec instanceof StepSpec.Measure measure) {
                actions.add(measureAction(measure));
            } else if (spec instanceof StepSpec.Reindex reindex) {
                actions.addAll(reindexActions(reindex));
            } else {
                actions.add(faultAction(step, (StepSpec.Fault) spec));
            }
            imported |= importing;
            generating = importing;
            steps.add(new KubernetesStep(step, values(step, imported, importing), List.copyOf(actions)));
        }
        return List.copyOf(steps);
    }

    /**
     * The chart's values during a step: the repository; import and index deployed once an import began, running during
     * an import and suspended (with a savepoint) otherwise; the generator during an import only; the API and its
     * commands' session cluster, which the reindex and the measures use.
     */
    private Map<String, Object> values(CampaignStep step, boolean imported, boolean importing) {
        Map<String, Object> steps = new LinkedHashMap<>();
        steps.put(Step.IMPORT_AND_INDEX.id(), Map.of("enabled", false));
        Map<String, Object> generate = new LinkedHashMap<>();
        generate.put("enabled", importing);
        if (importing) {
            generate.put("state", "running");
            generate.put("args", generation.generateArguments(step));
        }
        steps.put(Step.GENERATE.id(), generate);
        for (Step job : List.of(Step.IMPORT, Step.INDEX)) {
            Map<String, Object> deployment = new LinkedHashMap<>();
            deployment.put("enabled", imported);
            if (imported) {
                deployment.put("state", importing ? "running" : "suspended");
            }
            steps.put(job.id(), deployment);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("repository", campaign.repository());
        values.put("steps", steps);
        values.put("api", Map.of("enabled", true));
        values.put("commands", Map.of("enabled", true));
        return values;
    }

    private List<String> importActions(CampaignStep step, StepSpec.Import spec) {
        String repository = campaign.repository();
        return List.of("Wait until the generator's job is done, `kubectl get flinkdeployments -n $NAMESPACE -l "
                + "app.kubernetes.io/instance=$RELEASE,app.kubernetes.io/component=" + Step.GENERATE.id()
                + " -o jsonpath='{.items[0].status.jobStatus.state}'` printing FINISHED, and the consumer groups "
                + Step.IMPORT.consumerGroup(repository) + " and " + Step.INDEX.consumerGroup(repository)
                + " have no lag: the repository then holds " + generation.documentsAt(spec.to().documents())
                + " documents (" + spec.to().label() + ", in whole customers: the generator's customers "
                + generation.fromCustomer(step) + " to " + (generation.customersFor(spec.to().documents()) - 1)
                + " added by this import).");
    }

    private String measureAction(StepSpec.Measure measure) {
        String repository = campaign.repository();
        List<String> rates = new ArrayList<>();
        if (measure.navigationPerSecond() > 0) {
            rates.add(measure.navigationPerSecond() + " navigation requests a second (a customer's folder, GET /api/v1/"
                    + repository + "/documents/{id}, and its first children, GET /api/v1/" + repository
                    + "/documents/{id}/children)");
        }
        if (measure.searchPerSecond() > 0) {
            rates.add(measure.searchPerSecond() + " search requests a second (a customer's documents, GET /api/v1/"
                    + repository + "/search)");
        }
        return "By hand (the chart runs no load generator): for " + measure.duration().toSeconds() + " s, "
                + String.join(" and ", rates) + ", sent when due whatever the answers' speed (an open model), from a "
                + "load generator of yours against the API's Service or ingress.";
    }

    private List<String> reindexActions(StepSpec.Reindex reindex) {
        String body = "{\"deleteOld\": true" + (reindex.rangeSize() == null ? "" : ", \"rangeSize\": " + reindex.rangeSize())
                + "}";
        return List.of("curl -X POST \"$API/api/v1/" + campaign.repository() + "/reindex\" -H \"Authorization: Bearer "
                        + "$TOKEN\" -H 'Content-Type: application/json' -d '" + body + "'",
                "Follow GET $API/api/v1/bulk/{commandId} (the answer's Location) until its state is COMPLETED; its job "
                        + "is a FlinkSessionJob on the chart's session cluster (`kubectl get flinksessionjobs`).");
    }

    private String faultAction(CampaignStep step, StepSpec.Fault fault) {
        String component = FLINK_PODS.get(fault.service());
        if (component == null) {
            throw refused(step, "fault", "'" + fault.service() + "' is not deployed by the chart (Kafka, MongoDB and "
                    + "the search engine are services outside the cluster): only " + String.join(" and ",
                    FLINK_PODS.keySet().stream().sorted().toList()) + " faults are rendered for Kubernetes");
        }
        if (fault.outage() != null) {
            throw refused(step, "fault.down", "a Flink pod stopped for a while has no Kubernetes counterpart (its "
                    + "cluster makes another at once): use `kill: " + fault.service() + "`");
        }
        return "kubectl delete pod --grace-period=0 --force -n \"$NAMESPACE\" -l type=flink-native-kubernetes,component="
                + component + "   # every Flink cluster's " + component + " pods of the namespace that run now (with "
                + "the steps suspended, the session cluster's, if a command runs); Flink makes others at once";
    }

    private CampaignException refused(CampaignStep step, String field, String problem) {
        return new CampaignException(campaign.source(), step.line(), field, step.key() + " on Kubernetes: " + problem);
    }
}
