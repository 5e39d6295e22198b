package io.volumizer.api.commands;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.flink.kubernetes.operator.api.FlinkSessionJob;
import org.apache.flink.kubernetes.operator.api.FlinkSessionJobList;
import org.apache.flink.kubernetes.operator.api.spec.FlinkSessionJobSpec;
import org.apache.flink.kubernetes.operator.api.spec.JobSpec;
import org.apache.flink.kubernetes.operator.api.spec.JobState;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.apache.flink.kubernetes.operator.api.status.JobStatus;
import org.apache.flink.kubernetes.operator.api.status.SavepointInfo;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.volumizer.options.steps.Step;

/**
 * Commands' jobs as FlinkSessionJob resources the Flink Kubernetes Operator runs on the commands' session
 * FlinkDeployment: the operator fetches the jobs jar from {@code jarUri}, submits the job and records its id in the
 * resource's status; an abort suspends the resource (the operator stops the job with a savepoint and records its
 * path). One resource per command, named after it; a resumed or retried command's resource is replaced (a new
 * resource starts from {@code initialSavepointPath}, which an existing one ignores).
 */
public final class FlinkSessionJobs implements CommandJobs {

    /** What the API does with FlinkSessionJobs: the verbs its Role in the chart grants (a chart test compares them). */
    public static final List<String> VERBS = List.of("get", "list", "watch", "create", "patch", "delete");
    /** The annotation that names the command a FlinkSessionJob runs (a label's 63 characters may not hold its id). */
    public static final String COMMAND_ANNOTATION = "volumizer.io/command-id";

    private final KubernetesClient kubernetes;
    private final String deployment;
    private final String jarUri;
    private final Duration submitTimeout;

    /**
     * @param deployment    the session FlinkDeployment, in the client's namespace
     * @param jarUri        where the operator fetches the jobs jar (http(s), or a file system it has a plugin for)
     * @param submitTimeout how long a command waits for the operator to submit its job (then its resource is removed)
     */
    public FlinkSessionJobs(KubernetesClient kubernetes, String deployment, String jarUri, Duration submitTimeout) {
        this.kubernetes = kubernetes;
        this.deployment = deployment;
        this.jarUri = jarUri;
        this.submitTimeout = submitTimeout;
    }

    /** The resource that runs {@code step} with {@code arguments} for a command, from {@code savepoint} if not null. */
    public static FlinkSessionJob resource(String commandId, String deployment, String jarUri, Step step,
            List<String> arguments, String savepoint) {
        JobSpec job = JobSpec.builder().jarURI(jarUri).entryClass(step.mainClass())
                .args(step.arguments(arguments).toArray(String[]::new)).state(JobState.RUNNING)
                .upgradeMode(UpgradeMode.SAVEPOINT).initialSavepointPath(savepoint).allowNonRestoredState(false).build();
        FlinkSessionJob resource = new FlinkSessionJob();
        resource.setMetadata(new ObjectMetaBuilder().withName(name(commandId))
                .withAnnotations(Map.of(COMMAND_ANNOTATION, commandId)).build());
        resource.setSpec(FlinkSessionJobSpec.builder().deploymentName(deployment).job(job).build());
        resource.setStatus(null);
        return resource;
    }

    /** The resource's name: the command id, lower-cased, '_' made '-' (a DNS subdomain, as resource names must be). */
    public static String name(String commandId) {
        return commandId.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String run(String commandId, Step step, List<String> arguments, String savepoint) throws IOException {
        Resource<FlinkSessionJob> resource = jobs().withName(name(commandId));
        try {
            resource.withTimeout(submitTimeout.toMillis(), TimeUnit.MILLISECONDS).delete();
            resource.waitUntilCondition(Objects::isNull, submitTimeout.toMillis(), TimeUnit.MILLISECONDS);
            jobs().resource(resource(commandId, deployment, jarUri, step, arguments, savepoint)).create();
            FlinkSessionJob submitted = resource.waitUntilCondition(job -> job == null || error(job).isPresent()
                    || jobStatus(job).map(JobStatus::getJobId).isPresent(), submitTimeout.toMillis(), TimeUnit.MILLISECONDS);
            if (submitted == null) {
                throw new IOException("FlinkSessionJob " + name(commandId) + " was deleted before its job was submitted");
            }
            Optional<String> error = error(submitted);
            if (error.isPresent()) {
                resource.delete();
                throw new IOException("the operator could not submit FlinkSessionJob " + name(commandId) + ": " + error.get());
            }
            return submitted.getStatus().getJobStatus().getJobId();
        } catch (KubernetesClientTimeoutException e) {
            resource.delete();
            throw new IOException("FlinkSessionJob " + name(commandId) + " was not submitted within " + submitTimeout
                    + ": is the Flink Kubernetes Operator watching this namespace, and is FlinkDeployment " + deployment
                    + " ready?", e);
        } catch (KubernetesClientException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String stopWithSavepoint(String commandId, String jobId, Duration timeout) throws IOException, InterruptedException {
        Resource<FlinkSessionJob> resource = jobs().withName(name(commandId));
        try {
            resource.edit(job -> {
                job.getSpec().getJob().setState(JobState.SUSPENDED);
                return job;
            });
            Predicate<FlinkSessionJob> stopped = job -> job == null || savepoint(job).isPresent() || error(job).isPresent();
            FlinkSessionJob suspended = resource.waitUntilCondition(stopped, timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (suspended == null) {
                throw new IOException("FlinkSessionJob " + name(commandId) + " was deleted while it was being suspended");
            }
            return savepoint(suspended).orElseThrow(() -> new IOException("FlinkSessionJob " + name(commandId)
                    + " was not suspended with a savepoint: " + error(suspended).orElse("")));
        } catch (KubernetesClientTimeoutException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + " had no savepoint after " + timeout, e);
        } catch (KubernetesClientException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + ": " + e.getMessage(), e);
        }
    }

    private MixedOperation<FlinkSessionJob, FlinkSessionJobList, Resource<FlinkSessionJob>> jobs() {
        return kubernetes.resources(FlinkSessionJob.class, FlinkSessionJobList.class);
    }

    private static Optional<JobStatus> jobStatus(FlinkSessionJob job) {
        return Optional.ofNullable(job.getStatus()).map(status -> status.getJobStatus());
    }

    private static Optional<String> error(FlinkSessionJob job) {
        return Optional.ofNullable(job.getStatus()).map(status -> status.getError()).filter(error -> !error.isBlank());
    }

    /** The savepoint the operator took to suspend the job (operator 1.10 records it there, earlier ones in savepointInfo). */
    private static Optional<String> savepoint(FlinkSessionJob job) {
        if (job.getSpec().getJob().getState() != JobState.SUSPENDED) {
            return Optional.empty();
        }
        return jobStatus(job).map(JobStatus::getUpgradeSavepointPath)
                .or(() -> jobStatus(job).map(JobStatus::getSavepointInfo).map(SavepointInfo::getLastSavepoint)
                        .map(savepoint -> savepoint.getLocation()));
    }
}
