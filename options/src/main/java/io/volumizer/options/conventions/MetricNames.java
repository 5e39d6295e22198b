package io.volumizer.options.conventions;

/**
 * The names of the stages' own metrics, defined once for the jobs that register them and for everything that reads
 * them (the demo's progress, the benchmarks, the tests, the chart's dashboard). A stage's metrics live in the
 * {@value #GROUP} group of its operator, labelled {@value #STAGE_LABEL}; Flink's Prometheus reporter exports them as
 * {@code flink_taskmanager_job_task_operator_volumizer_stage_<metric>{stage="…"}}.
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
    public static final String REINDEX = "reindex";
    public static final String BULK = "bulk";

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
    public static final String PARENT_CACHE_MISSES = "parentCacheMisses";
    public static final String PARENTS_FROM_RESOLVED_FOLDERS = "parentsFromResolvedFolders";
    public static final String PARKED_CHILDREN = "parkedChildren";
    public static final String RESOLVED_WITH_PARENT = "resolvedWithParent";
    public static final String BLOBS_STORED = "blobsStored";
    public static final String FILE_TEXT_EXTRACTED = "fileTextExtracted";
    public static final String FILE_TEXT_FAILED = "fileTextFailed";
    public static final String FILE_TEXT_NOT_STORED = "fileTextNotStored";
    public static final String RANGES_DONE = "rangesDone";
    public static final String RANGES_FAILED = "rangesFailed";
    public static final String CHANGED = "changed";
    public static final String SKIPPED = "skipped";

    /** The exported name's prefix of every stage metric: append a metric's name. */
    public static final String PROMETHEUS_PREFIX = "flink_taskmanager_job_task_operator_" + GROUP + "_" + STAGE_LABEL + "_";

    private MetricNames() {
    }
}
