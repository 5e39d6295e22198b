package io.volumizer.options.pipeline;

import io.volumizer.options.Options;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where the pipeline's services and topics are, and how its jobs checkpoint and run: a mixin of every pipeline job
 * and of the tools that operate them, so the same names work everywhere, on the command line and in the Web UI.
 */
public final class PipelineOptions extends RepositoryServicesOptions {

    @Option(names = "--imported-topic", defaultValue = "volumizer.imported", description = "Imported documents, keyed by id (default: ${DEFAULT-VALUE}).")
    public String importedTopic;

    @Option(names = "--deadletter-topic", defaultValue = "volumizer.deadletter", description = "What a stage could not process (default: ${DEFAULT-VALUE}).")
    public String deadletterTopic;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of topics this job creates (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Mixin
    public CheckpointOptions checkpoints = new CheckpointOptions();

    @Option(names = "--parallelism", defaultValue = "0", description = "Job parallelism; 0 keeps the cluster's default (default: ${DEFAULT-VALUE}).")
    public int parallelism;

    public void validate() {
        Options.require(partitions >= 1, "--partitions must be at least 1, was " + partitions);
        Options.require(parallelism >= 0, "--parallelism must be 0 (cluster default) or positive, was " + parallelism);
        checkpoints.validate();
        search.validate();
        elasticsearch.validate();
        topology.validate();
        blobs.validate();
        Options.require(!documentsTopic().equals(importedTopic) && !documentsTopic().equals(deadletterTopic)
                && !importedTopic.equals(deadletterTopic), "--documents-topic, --imported-topic and --deadletter-topic must differ");
    }
}
