package io.volumizer.api.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.apache.flink.kubernetes.operator.api.FlinkSessionJob;
import org.apache.flink.kubernetes.operator.api.FlinkSessionJobList;
import org.apache.flink.kubernetes.operator.api.spec.JobState;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.apache.flink.kubernetes.operator.api.status.FlinkSessionJobStatus;
import org.apache.flink.kubernetes.operator.api.status.JobStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.volumizer.options.steps.Step;

/**
 * The FlinkSessionJob protocol between a command and the Flink Kubernetes Operator, on fabric8's CRUD API server with
 * the operator's CRD: no Kubernetes API server, and no operator, can run here (../shared/INFRA.md), so a small
 * stand-in plays the operator's part of the protocol (job id in the status once submitted; a savepoint's path once
 * suspended; an error for a deployment that does not exist), as its 1.10 release records them.
 */
@EnableKubernetesMockClient(crud = true)
class FlinkSessionJobsTest {

    private static final String DEPLOYMENT = "volumizer-commands";
    private static final String JAR = "http://volumizer-api-management:8091/artifacts/volumizer-jobs.jar";
    private static final String COMMAND = "reindex-bank_a-20261128-160000-0123abcd";
    private static final String SAVEPOINTS = "s3://volumizer/savepoints/savepoint-";

    /** The CRUD server logs each request; kept referenced, or the level is lost with the logger. */
    private static final Logger MOCK_SERVER_LOG = quiet(Logger.getLogger("okhttp3.mockwebserver"));

    KubernetesClient client;
    private SharedIndexInformer<FlinkSessionJob> operator;
    private final AtomicInteger savepointsTaken = new AtomicInteger();
    private volatile boolean savepointsFail;

    @BeforeEach
    void installTheOperatorsCrd() throws IOException {
        try (InputStream crd = FlinkSessionJob.class.getResourceAsStream("/META-INF/fabric8/flinksessionjobs.flink.apache.org-v1.yml")) {
            client.apiextensions().v1().customResourceDefinitions().load(crd).create();
        }
    }

    @AfterEach
    void stopTheOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    @Test
    void aCommandIsAFlinkSessionJobOnTheCommandsClusterWhoseJobIdTheOperatorRecords() throws IOException {
        startOperator();
        String jobId = jobs(Duration.ofSeconds(30)).run(COMMAND, Step.REINDEX, reindex(), null);

        FlinkSessionJob created = sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get();
        assertThat(jobId).isEqualTo(created.getStatus().getJobStatus().getJobId()).isNotBlank();
        assertThat(created.getMetadata().getName()).isEqualTo("reindex-bank-a-20261128-160000-0123abcd");
        assertThat(created.getMetadata().getAnnotations()).containsEntry(FlinkSessionJobs.COMMAND_ANNOTATION, COMMAND);
        assertThat(created.getSpec().getDeploymentName()).isEqualTo(DEPLOYMENT);
        assertThat(created.getSpec().getJob().getJarURI()).isEqualTo(JAR);
        assertThat(created.getSpec().getJob().getEntryClass()).isEqualTo(Step.REINDEX.mainClass());
        assertThat(created.getSpec().getJob().getArgs()).containsExactlyElementsOf(Step.REINDEX.arguments(reindex()));
        assertThat(created.getSpec().getJob().getState()).isEqualTo(JobState.RUNNING);
        assertThat(created.getSpec().getJob().getUpgradeMode()).isEqualTo(UpgradeMode.SAVEPOINT);
        assertThat(created.getSpec().getJob().getInitialSavepointPath()).isNull();
    }

    @Test
    void anAbortSuspendsTheJobWithASavepointAndAResumeStartsANewResourceFromIt() throws Exception {
        startOperator();
        FlinkSessionJobs jobs = jobs(Duration.ofSeconds(30));
        String first = jobs.run(COMMAND, Step.REINDEX, reindex(), null);
        String firstUid = sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get().getMetadata().getUid();

        String savepoint = jobs.stopWithSavepoint(COMMAND, first, Duration.ofSeconds(30));
        assertThat(savepoint).isEqualTo(SAVEPOINTS + 1);
        assertThat(sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get().getSpec().getJob().getState())
                .isEqualTo(JobState.SUSPENDED);

        String resumed = jobs.run(COMMAND, Step.REINDEX, reindex(), savepoint);
        FlinkSessionJob replaced = sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get();
        assertThat(resumed).isNotEqualTo(first);
        assertThat(replaced.getMetadata().getUid()).isNotEqualTo(firstUid);
        assertThat(replaced.getSpec().getJob().getInitialSavepointPath()).isEqualTo(savepoint);
        assertThat(replaced.getSpec().getJob().getState()).isEqualTo(JobState.RUNNING);
        assertThat(sessionJobs().list().getItems()).hasSize(1);

        // the resumed resource shows the savepoint it started from: a second abort waits for a new one
        assertThat(jobs.stopWithSavepoint(COMMAND, resumed, Duration.ofSeconds(30))).isEqualTo(SAVEPOINTS + 2);
    }

    @Test
    void anAbortWithoutASavepointSetsTheJobRunningAgainAndSaysWhy() throws Exception {
        startOperator();
        FlinkSessionJobs jobs = jobs(Duration.ofSeconds(30));
        String jobId = jobs.run(COMMAND, Step.REINDEX, reindex(), null);
        savepointsFail = true;

        assertThatThrownBy(() -> jobs.stopWithSavepoint(COMMAND, jobId, Duration.ofSeconds(30)))
                .isInstanceOf(IOException.class).hasMessageContaining("not suspended with a savepoint")
                .hasMessageContaining("savepoint failed");
        assertThat(sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get().getSpec().getJob().getState())
                .isEqualTo(JobState.RUNNING);
    }

    @Test
    void whatTheOperatorStillCannotSubmitAtTheTimeoutFailsTheCommandWithItsErrorAndLeavesNoResource() {
        startOperator();
        FlinkSessionJobs jobs = new FlinkSessionJobs(client, "no-such-deployment", JAR, Duration.ofSeconds(2));

        assertThatThrownBy(() -> jobs.run(COMMAND, Step.REINDEX, reindex(), null)).isInstanceOf(IOException.class)
                .hasMessageContaining("could not submit").hasMessageContaining("no-such-deployment");
        assertThat(sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get()).isNull();
    }

    @Test
    void withoutAnOperatorTheCommandFailsSayingSoAndLeavesNoResource() {
        FlinkSessionJobs jobs = jobs(Duration.ofSeconds(1));

        assertThatThrownBy(() -> jobs.run(COMMAND, Step.REINDEX, reindex(), null)).isInstanceOf(IOException.class)
                .hasMessageContaining("was not submitted within").hasMessageContaining("Flink Kubernetes Operator");
        assertThat(sessionJobs().withName(FlinkSessionJobs.name(COMMAND)).get()).isNull();
    }

    private static Logger quiet(Logger logger) {
        logger.setLevel(Level.WARNING);
        return logger;
    }

    private FlinkSessionJobs jobs(Duration submitTimeout) {
        return new FlinkSessionJobs(client, DEPLOYMENT, JAR, submitTimeout);
    }

    private static List<String> reindex() {
        return List.of("--repository", "bank_a", "--command-id", COMMAND, "--range-size", "5000");
    }

    private MixedOperation<FlinkSessionJob, FlinkSessionJobList, Resource<FlinkSessionJob>> sessionJobs() {
        return client.resources(FlinkSessionJob.class, FlinkSessionJobList.class);
    }

    /** The operator's part: submits a running job to {@link #DEPLOYMENT}, suspends one with a savepoint. */
    private void startOperator() {
        operator = sessionJobs().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(FlinkSessionJob job) {
                reconcile(job);
            }

            @Override
            public void onUpdate(FlinkSessionJob before, FlinkSessionJob job) {
                reconcile(job);
            }

            @Override
            public void onDelete(FlinkSessionJob job, boolean unknownFinalState) {
            }
        });
    }

    /**
     * As operator 1.10 does: the job id once submitted, and the savepoint it started from as the upgrade savepoint; on a
     * suspend, the new savepoint's path (or, when savepoints fail, an error).
     */
    private void reconcile(FlinkSessionJob job) {
        FlinkSessionJobStatus status = job.getStatus() == null ? new FlinkSessionJobStatus() : job.getStatus();
        JobStatus jobStatus = status.getJobStatus();
        JobState wanted = job.getSpec().getJob().getState();
        if (!DEPLOYMENT.equals(job.getSpec().getDeploymentName())) {
            if (status.getError() != null) {
                return;
            }
            status.setError("{\"message\":\"Session cluster " + job.getSpec().getDeploymentName() + " does not exist\"}");
        } else if (wanted == JobState.RUNNING && jobStatus.getJobId() == null) {
            jobStatus.setJobId(UUID.randomUUID().toString().replace("-", ""));
            jobStatus.setState(org.apache.flink.api.common.JobStatus.RUNNING);
            jobStatus.setUpgradeSavepointPath(job.getSpec().getJob().getInitialSavepointPath());
        } else if (wanted == JobState.SUSPENDED && jobStatus.getState() == org.apache.flink.api.common.JobStatus.RUNNING) {
            if (savepointsFail) {
                if (status.getError() != null) {
                    return;
                }
                status.setError("{\"message\":\"savepoint failed\"}");
            } else {
                jobStatus.setUpgradeSavepointPath(SAVEPOINTS + savepointsTaken.incrementAndGet());
                jobStatus.setState(org.apache.flink.api.common.JobStatus.FINISHED);
            }
        } else {
            return;
        }
        job.setStatus(status);
        sessionJobs().resource(job).updateStatus();
    }
}
