package io.volumizer.jobs.options;

import static io.volumizer.jobs.options.JobOptions.require;

import java.io.Serializable;
import java.time.Duration;

import picocli.CommandLine.Option;

/**
 * Where the pipeline's services and topics are; shared by every job (a picocli mixin), so the same names work
 * for every job on the command line and in the Flink Web UI.
 */
public final class PipelineOptions implements Serializable {

    private static final long serialVersionUID = 1L;

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka brokers (default: ${DEFAULT-VALUE}).")
    public String bootstrapServers;

    @Option(names = "--registry-url", defaultValue = "http://127.0.0.1:8085/apis/ccompat/v7",
            description = "Confluent-compatible schema registry (default: ${DEFAULT-VALUE}).")
    public String registryUrl;

    @Option(names = "--documents-topic", defaultValue = "volumizer.documents", description = "Document events, keyed by parent id (default: ${DEFAULT-VALUE}).")
    public String documentsTopic;

    @Option(names = "--imported-topic", defaultValue = "volumizer.imported", description = "Imported documents, keyed by id (default: ${DEFAULT-VALUE}).")
    public String importedTopic;

    @Option(names = "--deadletter-topic", defaultValue = "volumizer.deadletter", description = "What a stage could not process (default: ${DEFAULT-VALUE}).")
    public String deadletterTopic;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of topics this job creates (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Option(names = "--mongodb-uri", defaultValue = "mongodb://127.0.0.1:27017", description = "MongoDB (default: ${DEFAULT-VALUE}).")
    public String mongodbUri;

    @Option(names = "--mongodb-database", defaultValue = "volumizer", description = "Database of the repositories (default: ${DEFAULT-VALUE}).")
    public String mongodbDatabase;

    @Option(names = "--elasticsearch-url", defaultValue = "http://127.0.0.1:9200", description = "Elasticsearch (default: ${DEFAULT-VALUE}).")
    public String elasticsearchUrl;

    @Option(names = "--index-prefix", defaultValue = "volumizer-", description = "Prefix of repository indices (default: ${DEFAULT-VALUE}).")
    public String indexPrefix;

    @Option(names = "--checkpoint-interval", defaultValue = "PT5S", description = "ISO-8601 duration between checkpoints (default: ${DEFAULT-VALUE}).")
    public Duration checkpointInterval;

    @Option(names = "--parallelism", defaultValue = "0", description = "Job parallelism; 0 keeps the cluster's default (default: ${DEFAULT-VALUE}).")
    public int parallelism;

    public void validate() {
        require(partitions >= 1, "--partitions must be at least 1, was " + partitions);
        require(parallelism >= 0, "--parallelism must be 0 (cluster default) or positive, was " + parallelism);
        require(!checkpointInterval.isNegative() && !checkpointInterval.isZero(),
                "--checkpoint-interval must be positive, was " + checkpointInterval);
        require(!documentsTopic.equals(importedTopic) && !documentsTopic.equals(deadletterTopic)
                && !importedTopic.equals(deadletterTopic), "--documents-topic, --imported-topic and --deadletter-topic must differ");
        require(indexPrefix.equals(indexPrefix.toLowerCase()), "--index-prefix must be lower case, was " + indexPrefix);
    }
}
