package io.volumizer.api.commands;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    /**
     * Replaces the command's resource (an ended run's, or a suspended one's) by a new one and waits for the operator to
     * submit its job. The operator retries what failed (a jar it could not fetch while the API's pods roll): an error
     * in the status fails the command only if it is still there at the timeout. A resource this call created is
     * removed whenever the call fails, so that no job runs for a command marked failed.
     */
    @Override
    public String run(String commandId, Step step, List<String> arguments, String savepoint) throws IOException {
        Resource<FlinkSessionJob> resource = jobs().withName(name(commandId));
        try {
            resource.withTimeout(submitTimeout.toMillis(), TimeUnit.MILLISECONDS).delete();
        } catch (KubernetesClientTimeoutException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + " of the command's last run was not removed "
                    + "within " + submitTimeout + ": is the Flink Kubernetes Operator running (it removes its finalizer)?", e);
        } catch (KubernetesClientException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + ": " + e.getMessage(), e);
        }
        boolean submitted = false;
        try {
            jobs().resource(resource(commandId, deployment, jarUri, step, arguments, savepoint)).create();
        } catch (KubernetesClientException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + " could not be created: " + e.getMessage(), e);
        }
        try {
            FlinkSessionJob job = resource.waitUntilCondition(current -> current == null
                    || jobStatus(current).map(JobStatus::getJobId).isPresent(), submitTimeout.toMillis(), TimeUnit.MILLISECONDS);
            if (job == null) {
                throw new IOException("FlinkSessionJob " + name(commandId) + " was deleted before its job was submitted");
            }
            submitted = true;
            return job.getStatus().getJobStatus().getJobId();
        } catch (KubernetesClientTimeoutException e) {
            Optional<String> error = Optional.ofNullable(resource.get()).flatMap(FlinkSessionJobs::error);
            throw new IOException(error.map(reason -> "the operator could not submit FlinkSessionJob " + name(commandId)
                    + " within " + submitTimeout + ": " + reason).orElse("FlinkSessionJob " + name(commandId)
                    + " was not submitted within " + submitTimeout + ": is the Flink Kubernetes Operator watching this "
                    + "namespace, and is FlinkDeployment " + deployment + " ready?"), e);
        } catch (KubernetesClientException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + ": " + e.getMessage(), e);
        } finally {
            if (!submitted) {
                resource.delete();
            }
        }
    }

    /**
     * Suspends the command's resource: the operator stops its job with a savepoint and records the path. A resumed
     * command's resource already shows a path (the savepoint it started from), so only a new one counts. If no
     * savepoint comes, the resource is set running again: the command stays as it was, its job untouched or resumed.
     */
    @Override
    public String stopWithSavepoint(String commandId, String jobId, Duration timeout) throws IOException, InterruptedException {
        Resource<FlinkSessionJob> resource = jobs().withName(name(commandId));
        try {
            FlinkSessionJob running = resource.get();
            if (running == null) {
                throw new IOException("no FlinkSessionJob " + name(commandId) + ": the command's job runs elsewhere, or "
                        + "its resource was deleted");
            }
            Optional<String> before = upgradeSavepoint(running);
            Optional<String> errorBefore = error(running);
            setState(resource, JobState.SUSPENDED);
            Predicate<FlinkSessionJob> stopped = job -> job == null || newSavepoint(job, before).isPresent()
                    || error(job).filter(error -> !errorBefore.equals(Optional.of(error))).isPresent();
            FlinkSessionJob suspended;
            try {
                suspended = resource.waitUntilCondition(stopped, timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (KubernetesClientTimeoutException e) {
                setState(resource, JobState.RUNNING);
                throw new IOException("FlinkSessionJob " + name(commandId) + " had no savepoint after " + timeout
                        + ": set running again", e);
            }
            if (suspended == null) {
                throw new IOException("FlinkSessionJob " + name(commandId) + " was deleted while it was being suspended");
            }
            Optional<String> savepoint = newSavepoint(suspended, before);
            if (savepoint.isEmpty()) {
                setState(resource, JobState.RUNNING);
                throw new IOException("FlinkSessionJob " + name(commandId) + " was not suspended with a savepoint ("
                        + error(suspended).orElse("") + "): set running again");
            }
            return savepoint.get();
        } catch (KubernetesClientException e) {
            throw new IOException("FlinkSessionJob " + name(commandId) + ": " + e.getMessage(), e);
        }
    }

    /** The job's wanted state in the resource's spec (a patch: the Role grants no update). */
    private static void setState(Resource<FlinkSessionJob> resource, JobState state) {
        resource.edit(job -> {
            job.getSpec().getJob().setState(state);
            return job;
        });
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

    /** The savepoint the operator recorded for the job's last stop (operator 1.10 records it there, earlier ones in savepointInfo). */
    private static Optional<String> upgradeSavepoint(FlinkSessionJob job) {
        return jobStatus(job).map(JobStatus::getUpgradeSavepointPath)
                .or(() -> jobStatus(job).map(JobStatus::getSavepointInfo).map(SavepointInfo::getLastSavepoint)
                        .map(savepoint -> savepoint.getLocation()));
    }

    /** A savepoint of the suspended job other than {@code before}. */
    private static Optional<String> newSavepoint(FlinkSessionJob job, Optional<String> before) {
        if (job.getSpec().getJob().getState() != JobState.SUSPENDED) {
            return Optional.empty();
        }
        return upgradeSavepoint(job).filter(path -> !before.equals(Optional.of(path)));
    }
}
