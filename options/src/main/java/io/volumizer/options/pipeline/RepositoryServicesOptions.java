package io.volumizer.options.pipeline;

import java.util.Map;

import io.volumizer.options.endpoints.ElasticsearchOptions;
import io.volumizer.options.endpoints.KafkaOptions;
import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.options.endpoints.RegistryOptions;
import io.volumizer.options.topology.Topology;
import io.volumizer.options.topology.TopologyOptions;
import io.volumizer.sinks.elasticsearch.IndexLayout;
import picocli.CommandLine.Mixin;

/**
 * Where a repository lives: its log (Kafka, the schema registry, the documents topic), its two views (MongoDB,
 * Elasticsearch) and the topology that routes documents among repositories. The options of the pipeline's jobs and
 * of the API both start from these, with the same names.
 */
public abstract class RepositoryServicesOptions {

    @Mixin
    public KafkaOptions kafka = new KafkaOptions();

    @Mixin
    public RegistryOptions registry = new RegistryOptions();

    @Mixin
    public DocumentsTopicOptions documents = new DocumentsTopicOptions();

    @Mixin
    public MongoOptions mongodb = new MongoOptions();

    @Mixin
    public ElasticsearchOptions elasticsearch = new ElasticsearchOptions();

    @Mixin
    public TopologyOptions topology = new TopologyOptions();

    public String documentsTopic() {
        return documents.topic;
    }

    /** How each repository's index is laid out: the topology file's, or else the template's for every repository. */
    public Map<String, IndexLayout> indexLayouts() {
        return topology.topology().map(Topology::indexLayouts).orElse(Map.of());
    }
}
