package io.volumizer.options.conventions;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The names of Volumizer's own metrics, defined once for what registers them (the jobs' stages, the API) and for
 * everything that reads them (the demo's progress, the benchmarks, the tests, the chart's dashboard, which
 * ChartConventionsTest checks against {@link #stagePrometheusNames()} and {@link #apiPrometheusNames()}).
 * <p>
 * A stage's metrics live in the {@value #GROUP} group of its operator, labelled {@value #STAGE_LABEL}; Flink's
 * Prometheus reporter exports them as {@code flink_taskmanager_job_task_operator_volumizer_stage_<metric>{stage="…"}}
 * ({@link #prometheusName}). The API's are Micrometer meters, which its Prometheus registry exports with units and
 * suffixes ({@link #apiPrometheusNames()}).
 */
public final class MetricNames {

    public static final String GROUP = "volumizer";
    public static final String STAGE_LABEL = "stage";
    /** The label of a dead-letter count: the reason class, lower case. */
    public static final String REASON_LABEL = "reason";

    /** The stages, as their metrics are labelled. */
    public static final String GENERATE = "generate";
    public static final String IMPORT = "import";
    public static final String INDEX = "index";
    /** Live repositories' files' text, read and indexed after their metadata (a branch of the index stage). */
    public static final String FILE_TEXT = "file-text";
    public static final String REINDEX = "reindex";
    public static final String BULK = "bulk";
    public static final String CSV_IMPORT = "csv-import";

    public static final String GENERATED = "generated";
    public static final String DECODED = "decoded";
    public static final String WRITTEN = "written";
    public static final String WRITTEN_PER_SECOND = "writtenPerSecond";
    public static final String STALE = "stale";
    public static final String RETRIES = "retries";
    public static final String BULK_MILLIS = "bulkMillis";
    public static final String BATCH_SIZE = "batchSize";
    public static final String DEAD_LETTERED = "deadLettered";
    public static final String PARENT_CACHE_HITS = "parentCacheHits";
    /** A step's throttle ({@code bin/volumizer throttle}): the job's limit in docs/s, 0 for none. */
    public static final String THROTTLE_LIMIT = "throttleDocsPerSecond";
    /** 1 while the step's throttle holds its source (paused, or its control topic not read yet), else 0. */
    public static final String THROTTLE_PAUSED = "throttlePaused";
    /** Documents its throttled source let through: a counter, and its rate a second. */
    public static final String THROTTLE_PASSED = "throttlePassed";
    public static final String THROTTLE_ACHIEVED = "throttleAchievedDocsPerSecond";
    /** A parent looked up in MongoDB for children that just parked: what the cache did not have. */
    public static final String PARENT_CACHE_MISSES = "parentCacheMisses";
    /** A parent looked up again for children still parked: its document not written yet when last looked up. */
    public static final String PARENT_LOOKUP_RETRIES = "parentLookupRetries";
    public static final String PARENTS_FROM_RESOLVED_FOLDERS = "parentsFromResolvedFolders";
    public static final String PARKED_CHILDREN = "parkedChildren";
    public static final String RESOLVED_WITH_PARENT = "resolvedWithParent";
    public static final String BLOBS_STORED = "blobsStored";
    public static final String FILE_TEXT_EXTRACTED = "fileTextExtracted";
    public static final String FILE_TEXT_FAILED = "fileTextFailed";
    public static final String FILE_TEXT_NOT_STORED = "fileTextNotStored";
    public static final String FILE_TEXT_TIMED_OUT = "fileTextTimedOut";
    /** A file's text a reindex read back with its document, stored when it was first read: not read again. */
    public static final String FILE_TEXT_CARRIED = "fileTextCarried";
    /** From a document's import to its file's text written into the index: the file text's lag behind the import. */
    public static final String FILE_TEXT_DELAY_MILLIS = "fileTextDelayMillis";
    public static final String RANGES_DONE = "rangesDone";
    public static final String RANGES_FAILED = "rangesFailed";
    public static final String CHANGED = "changed";
    public static final String SKIPPED = "skipped";

    /** Every stage metric above. */
    private static final Set<String> STAGE_METRICS = Set.of(GENERATED, DECODED, WRITTEN, WRITTEN_PER_SECOND, STALE,
            RETRIES, BULK_MILLIS, BATCH_SIZE, DEAD_LETTERED, PARENT_CACHE_HITS, PARENT_CACHE_MISSES,
            PARENT_LOOKUP_RETRIES, THROTTLE_LIMIT, THROTTLE_PAUSED, THROTTLE_PASSED, THROTTLE_ACHIEVED,
            PARENTS_FROM_RESOLVED_FOLDERS, PARKED_CHILDREN, RESOLVED_WITH_PARENT, BLOBS_STORED, FILE_TEXT_EXTRACTED,
            FILE_TEXT_FAILED, FILE_TEXT_NOT_STORED, FILE_TEXT_TIMED_OUT, FILE_TEXT_CARRIED, FILE_TEXT_DELAY_MILLIS,
            RANGES_DONE, RANGES_FAILED, CHANGED, SKIPPED);

    /** The exported name's prefix of every operator metric of Flink's Prometheus reporter. */
    public static final String OPERATOR_PROMETHEUS_PREFIX = "flink_taskmanager_job_task_operator_";
    /** The label of a job's id on every job metric the reporter exports. */
    public static final String JOB_ID_LABEL = "job_id";
    /** The exported name's prefix of every stage metric: append a metric's name. */
    public static final String PROMETHEUS_PREFIX = OPERATOR_PROMETHEUS_PREFIX + GROUP + "_" + STAGE_LABEL + "_";

    /** The API's meters (Micrometer names): requests by route, method and status, a timer. */
    public static final String API_REQUESTS = "volumizer.api.requests";
    /** Requests being served, by admission class: a gauge. */
    public static final String API_IN_FLIGHT = "volumizer.api.in.flight";
    /** Requests refused, by admission class: a counter. */
    public static final String API_REFUSED = "volumizer.api.refused";
    /** Requests to Elasticsearch: a timer. */
    public static final String API_ELASTICSEARCH_REQUESTS = "volumizer.api.elasticsearch.requests";
    /** Reads that went through the read seam, by route and what the caller's grant was applied to: a counter. */
    public static final String API_READ_GRANTS = "volumizer.api.read.grants";
    /** Requests refused for want of a valid bearer token: a counter (no client address: its series would be unbounded). */
    public static final String API_AUTHENTICATION_FAILURES = "volumizer.api.authentication.failures";
    /** Requests refused, their token unread, inside their client address's penalty window: a counter. */
    public static final String API_AUTHENTICATION_PENALTIES = "volumizer.api.authentication.penalties";

    /**
     * The hold controller's meters ({@code bin/volumizer throttle <step> --hold-p95}): the limit it set, the users'
     * p95 it observed and its target (gauges), its decisions by {@value #DECISION_LABEL} (a counter).
     */
    public static final String HOLD_LIMIT = "volumizer.hold.limit.docs.per.second";
    public static final String HOLD_ACHIEVED = "volumizer.hold.achieved.docs.per.second";
    public static final String HOLD_OBSERVED_P95 = "volumizer.hold.observed.p95.seconds";
    public static final String HOLD_TARGET_P95 = "volumizer.hold.target.p95.seconds";
    public static final String HOLD_DECISIONS = "volumizer.hold.decisions";
    public static final String DECISION_LABEL = "decision";

    /**
     * Flink's own metric, not ours: the records of a source's splits not read yet (FLIP-33's pendingRecords, which the
     * Kafka source reports per subtask), as its Prometheus reporter exports it. Summed over a job's subtasks, its lag.
     */
    public static final String SOURCE_PENDING_RECORDS = OPERATOR_PROMETHEUS_PREFIX + "pendingRecords";

    /** The API's labels. */
    public static final String ROUTE_LABEL = "route";
    public static final String METHOD_LABEL = "method";
    public static final String STATUS_LABEL = "status";
    public static final String CLASS_LABEL = "class";
    /** What a read grant was applied to: a search (a filter) or a document (a check). */
    public static final String APPLIED_LABEL = "applied";

    private MetricNames() {
    }

    /**
     * A stage metric's exported name. A dead-letter count sits in a {@value #REASON_LABEL} group below the stage's,
     * whose key the reporter puts into the name as it does the stage's.
     */
    public static String prometheusName(String stageMetric) {
        return PROMETHEUS_PREFIX + (stageMetric.equals(DEAD_LETTERED) ? REASON_LABEL + "_" : "") + stageMetric;
    }

    /**
     * A label's value as Flink's Prometheus reporter exports it: every character Prometheus does not take in a name
     * replaced by an underscore (stage {@value #FILE_TEXT} is {@code file_text} there).
     */
    public static String prometheusLabelValue(String value) {
        return value.replaceAll("[^a-zA-Z0-9:_]", "_");
    }

    /** The exported name of every stage metric. */
    public static Set<String> stagePrometheusNames() {
        return STAGE_METRICS.stream().map(MetricNames::prometheusName).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The names Prometheus sees of the API's meters: dots become underscores, a timer is histogram series in
     * seconds and a maximum, a counter ends in {@code _total} (the Micrometer Prometheus registry's rules; ApiMetricsTest
     * checks them against a scrape).
     */
    public static Set<String> apiPrometheusNames() {
        return Stream.of(timer(API_REQUESTS), timer(API_ELASTICSEARCH_REQUESTS),
                Stream.of(prometheus(API_IN_FLIGHT), prometheus(API_REFUSED) + "_total", prometheus(API_READ_GRANTS) + "_total",
                        prometheus(API_AUTHENTICATION_FAILURES) + "_total", prometheus(API_AUTHENTICATION_PENALTIES) + "_total"))
                .flatMap(names -> names).collect(Collectors.toUnmodifiableSet());
    }

    /** The exported name of the API requests' histogram buckets, cumulative by their {@code le} label. */
    public static String apiRequestBuckets() {
        return prometheus(API_REQUESTS) + "_seconds_bucket";
    }

    /** The names Prometheus sees of the hold controller's meters (gauges as they are, the counter with {@code _total}). */
    public static Set<String> holdPrometheusNames() {
        return Stream.of(prometheus(HOLD_LIMIT), prometheus(HOLD_ACHIEVED), prometheus(HOLD_OBSERVED_P95),
                prometheus(HOLD_TARGET_P95), prometheus(HOLD_DECISIONS) + "_total").collect(Collectors.toUnmodifiableSet());
    }

    private static Stream<String> timer(String meter) {
        String seconds = prometheus(meter) + "_seconds";
        return Stream.of("_count", "_sum", "_bucket", "_max").map(suffix -> seconds + suffix);
    }

    private static String prometheus(String meter) {
        return meter.replace('.', '_');
    }
}
