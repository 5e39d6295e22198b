package io.volumizer.jobs.pipeline;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.ops.metrics.PrometheusScrape;
import io.volumizer.options.steps.Step;
import io.volumizer.options.conventions.MetricNames;

/**
 * A running import seen as Prometheus sees it: the TaskManagers' reporter (on loopback) serves the {@code volumizer}
 * metrics of every stage, and their counts are the stores' counts.
 */
class MetricsIT {

    private static final String PREFIX = MetricNames.PROMETHEUS_PREFIX;

    private ScopedRun it;

    @BeforeEach
    void configure() throws Exception {
        it = new ScopedRun(JobsJar.path());
    }

    @AfterEach
    void cleanUp() throws Exception {
        it.close();
    }

    @Test
    void aRunningImportServesTheVolumizerMetricsOfEachStageWithTheStoresCounts() throws Exception {
        long documents = it.generated(40, 12).size();
        String job = it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-metrics-" + it.run), null);
        it.generate(40, 12);
        await("documents in MongoDB", it::mongoCount, documents, Duration.ofMinutes(3));
        await("documents in Elasticsearch", it::elasticsearchCount, documents, Duration.ofMinutes(2));

        PrometheusScrape scrape = PrometheusScrape.of(ScopedRun.FLINK_METRICS);
        Map<String, String> ofThisJob = Map.of("job_id", job);
        Set<String> names = scrape.samples().stream()
                .filter(s -> s.name().startsWith(PREFIX) && job.equals(s.labels().get("job_id")))
                .map(s -> s.name() + "{stage=" + s.labels().get(MetricNames.STAGE_LABEL) + "}")
                .collect(Collectors.toCollection(TreeSet::new));
        System.out.println("volumizer metrics of " + job + ":\n  " + String.join("\n  ", names));

        assertThat(scrape.sum(PREFIX + "written", with(ofThisJob, "import"))).isEqualTo(documents);
        assertThat(scrape.sum(PREFIX + "written", with(ofThisJob, "index"))).isEqualTo(documents);
        assertThat(scrape.sum(ScopedRun.DEAD_LETTERED, ofThisJob)).isZero();
        assertThat(scrape.sum(PREFIX + "resolvedWithParent", ofThisJob)).isPositive().isLessThan(documents);
        assertThat(scrape.sum(PREFIX + "parentCacheMisses", ofThisJob)).isPositive();
        assertThat(names).contains(
                PREFIX + "bulkMillis{stage=import}", PREFIX + "bulkMillis{stage=index}",
                PREFIX + "batchSize{stage=import}", PREFIX + "writtenPerSecond{stage=index}",
                PREFIX + "retries{stage=import}", PREFIX + "retries{stage=index}",
                PREFIX + "parkedChildren{stage=import}", PREFIX + "parentLookupRetries{stage=import}",
                PREFIX + "stale{stage=index}",
                ScopedRun.DEAD_LETTERED + "{stage=import}", ScopedRun.DEAD_LETTERED + "{stage=index}");
        assertThat(scrape.samples()).as("Flink's own metrics beside them: Kafka consumer lag, JVM heap")
                .anyMatch(s -> s.name().contains("KafkaSourceReader") && s.name().endsWith("records_lag_max"))
                .anyMatch(s -> s.name().equals("flink_taskmanager_Status_JVM_Memory_Heap_Used"));
    }

    private static Map<String, String> with(Map<String, String> labels, String stage) {
        var all = new java.util.HashMap<>(labels);
        all.put(MetricNames.STAGE_LABEL, stage);
        return all;
    }
}
