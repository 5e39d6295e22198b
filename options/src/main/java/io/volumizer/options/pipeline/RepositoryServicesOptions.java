package io.volumizer.options.pipeline;

import io.volumizer.options.endpoints.ElasticsearchOptions;
import io.volumizer.options.endpoints.KafkaOptions;
import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.options.endpoints.RegistryOptions;
import picocli.CommandLine.Mixin;

/**
 * Where a repository lives: its log (Kafka, the schema registry, the documents topic) and its two views (MongoDB,
 * Elasticsearch). The options of the pipeline's jobs and of the API both start from these, with the same names.
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

    public String documentsTopic() {
        return documents.topic;
    }
}
