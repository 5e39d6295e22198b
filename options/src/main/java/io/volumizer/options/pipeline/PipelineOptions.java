package io.volumizer.options.pipeline;

import java.util.stream.Stream;

import io.volumizer.options.Options;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where the pipeline's services and topics are, and how its jobs checkpoint and run: a mixin of every pipeline job
 * and of the tools that operate them, so the same names work everywhere, on the command line and in the Web UI.
 */
public final class PipelineOptions extends RepositoryServicesOptions {

    @Option(names = "--imported-topic", description = "Imported documents, keyed by id (default: --topics-of's).")
    private String importedTopic;

    @Option(names = "--deadletter-topic", description = "What a stage could not process (default: --topics-of's).")
    private String deadletterTopic;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of topics this job creates (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Mixin public TopicSettings topicSettings = new TopicSettings();
    @Mixin public CheckpointOptions checkpoints = new CheckpointOptions();

    @Option(names = "--parallelism", defaultValue = "0", description = "Job parallelism; 0 keeps the cluster's default (default: ${DEFAULT-VALUE}).")
    public int parallelism;

    /**
     * Set, not derived: Flink derives 128 from a small parallelism, and a savepoint restores only at its max
     * parallelism, so a job started on two slots could never grow past 128 subtasks. Fifty times the largest step the
     * planner sizes for the published 11-billion layout (83 reindex slots); its cost is measured in the results.
     */
    @Option(names = "--max-parallelism", defaultValue = "4096", description = "Most subtasks a job's keyed state "
            + "may ever be spread over, fixed for its savepoints: a job resumes at any parallelism up to it "
            + "(1..32768; a savepoint taken before this option existed has 128) (default: ${DEFAULT-VALUE}).")
    public int maxParallelism;

    public String importedTopic() {
        return importedTopic != null ? importedTopic : documents.topics().imported();
    }

    public String deadletterTopic() {
        return deadletterTopic != null ? deadletterTopic : documents.topics().deadletter();
    }

    /** The compacted topic of the throttles the repository's jobs obey ({@code --topics-of}'s). */
    public String controlTopic() {
        return documents.topics().control();
    }

    public void validate() {
        Options.require(partitions >= 1, "--partitions must be at least 1, was " + partitions);
        Options.require(parallelism >= 0, "--parallelism must be 0 (cluster default) or positive, was " + parallelism);
        Options.require(maxParallelism >= 1 && maxParallelism <= 32768 && parallelism <= maxParallelism,
                "--max-parallelism must be within 1..32768 and at least --parallelism, was " + maxParallelism);
        topicSettings.validate();
        checkpoints.validate();
        documents.validate();
        search.validate();
        indexPrefix.validate();
        topology.validate();
        blobs.validate();
        Options.require(Stream.of(documentsTopic(), importedTopic(), deadletterTopic()).distinct().count() == 3,
                "--documents-topic, --imported-topic and --deadletter-topic must differ");
    }
}
