package io.volumizer.options.steps;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.volumizer.options.Options;
import io.volumizer.options.conventions.ConsumerGroups;

/**
 * The pipeline's steps, each a Flink job of the jobs jar: its name on the command line, the main class the
 * cluster runs, the name the job runs under, and its options class. The tools that submit, resume and recover
 * steps read them here, so they parse and check a step's options without Flink and before anything is uploaded.
 */
public enum Step {

    GENERATE("generate", "io.volumizer.jobs.generate.GenerateJob", GenerateOptions::new),
    IMPORT("import", "io.volumizer.jobs.imports.ImportJob", ImportOptions::new),
    INDEX("index", "io.volumizer.jobs.index.IndexJob", IndexOptions::new),
    IMPORT_AND_INDEX("import-and-index", "io.volumizer.jobs.pipeline.ImportAndIndexJob", ImportAndIndexOptions::new),
    SMOKE("smoke", "io.volumizer.jobs.smoke.SmokeJob", SmokeOptions::new),
    REINDEX("reindex", "io.volumizer.jobs.reindex.ReindexJob", ReindexOptions::new),
    BULK_UPDATE("bulk-update", "io.volumizer.jobs.bulk.BulkUpdateJob", BulkUpdateOptions::new),
    SET_ACL("set-acl", "io.volumizer.jobs.bulk.acl.SetAclJob", SetAclOptions::new),
    IMPORT_CSV("import-csv", "io.volumizer.jobs.csv.CsvImportJob", CsvImportOptions::new);

    private final String id;
    private final String mainClass;
    private final Supplier<Object> options;

    Step(String id, String mainClass, Supplier<Object> options) {
        this.id = id;
        this.mainClass = mainClass;
        this.options = options;
    }

    /** The step as users name it: {@code import-and-index}. */
    public String id() {
        return id;
    }

    public String mainClass() {
        return mainClass;
    }

    /**
     * The consumer group this step reads its topic in for {@code repository} ({@code null}: none named). Import and
     * import-and-index share one: both read the documents topic, and either continues where the other stopped.
     *
     * @throws IllegalArgumentException for a step that reads no topic in a group
     */
    public String consumerGroup(String repository) {
        return switch (this) {
            case IMPORT, IMPORT_AND_INDEX -> ConsumerGroups.of(repository, ConsumerGroups.IMPORT);
            case INDEX -> ConsumerGroups.of(repository, ConsumerGroups.INDEX);
            default -> throw new IllegalArgumentException(id + " reads no topic in a consumer group");
        };
    }

    /** The name of the step's jobs, which their Kafka transactions are named after too. */
    public String jobName() {
        return "volumizer-" + id;
    }

    /** The name a run of the step runs under, as the Web UI lists it: its job name and its instance. */
    public String runName(PipelineStepOptions options) {
        return jobName() + " " + options.instance();
    }

    /**
     * Where a run of the step keeps its checkpoints, below the cluster's checkpoint folder: one folder per step and
     * instance, which holds a folder per job id; {@code job recover} resumes the newest checkpoint found there.
     */
    public String checkpointDirectory(String clusterDirectory, PipelineStepOptions options) {
        return clusterDirectory.replaceAll("/+$", "") + "/" + jobName() + "/"
                + options.instance().replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** A new, unparsed options object of this step. */
    public Object newOptions() {
        return options.get();
    }

    /**
     * This step's options from {@code args}, where a later option replaces an earlier one of the same name, checked
     * as the job will check them; {@code null} when they asked for help (printed).
     *
     * @throws Options.InvalidOptionsException naming the option at fault, with the step's usage
     */
    public Object parse(List<String> args) {
        return Options.parseWithOverrides(newOptions(), args);
    }

    /** The program arguments the job is submitted with: {@code args} parsed, checked, and written out whole. */
    public List<String> arguments(List<String> args) {
        Object parsed = parse(args);
        if (parsed == null) {
            throw new IllegalArgumentException("--help is not a job argument");
        }
        return Options.arguments(parsed);
    }

    /**
     * Whether the step's jobs obey a throttle ({@code bin/volumizer throttle}): those whose source reads documents.
     * A bulk update's reads slices of a selection, whose changes the running import applies: they obey the import's.
     */
    public boolean throttled() {
        return this == GENERATE || this == IMPORT || this == INDEX || this == IMPORT_AND_INDEX || this == REINDEX
                || this == SET_ACL || this == IMPORT_CSV;
    }

    /**
     * What the ids of the step's commands begin with ({@code reindex-demo-…}), a command being a run of the step
     * the API tracks; empty for a step that runs no command.
     */
    public Optional<String> commandKind() {
        return switch (this) {
            case REINDEX -> Optional.of("reindex");
            case BULK_UPDATE -> Optional.of("bulk");
            case SET_ACL -> Optional.of("acl");
            default -> Optional.empty();
        };
    }

    /** Whether {@code id} is the id of one of this step's commands. */
    public boolean isCommand(String id) {
        return commandKind().map(kind -> id.startsWith(kind + "-")).orElse(false);
    }

    /** @throws IllegalArgumentException naming the steps there are */
    public static Step named(String id) {
        return Arrays.stream(values()).filter(step -> step.id.equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown step '" + id + "'; steps: " + ids()));
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(Step::id).toList();
    }
}
