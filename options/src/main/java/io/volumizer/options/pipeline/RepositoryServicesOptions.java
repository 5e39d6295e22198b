package io.volumizer.options.pipeline;

import java.util.Map;

import io.volumizer.options.endpoints.IndexPrefixOptions;
import io.volumizer.options.endpoints.KafkaOptions;
import io.volumizer.options.endpoints.MongoOptions;
import io.volumizer.options.endpoints.RegistryOptions;
import io.volumizer.domain.topology.Topology;
import io.volumizer.options.topology.TopologyOptions;
import io.volumizer.stores.blob.BlobStoreOptions;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.mongodb.MongoLocation;
import io.volumizer.stores.mongodb.RepositoryDatabases;
import picocli.CommandLine.Mixin;

/**
 * Where a repository lives: its log (Kafka, the schema registry, the documents topic), its two views (MongoDB,
 * the search engine), its blobs and the topology that routes documents among repositories. The options of the
 * pipeline's jobs and of the API both start from these, with the same names.
 */
public abstract class RepositoryServicesOptions {

    @Mixin public KafkaOptions kafka = new KafkaOptions();
    @Mixin public RegistryOptions registry = new RegistryOptions();
    @Mixin public DocumentsTopicOptions documents = new DocumentsTopicOptions();
    @Mixin public MongoOptions mongodb = new MongoOptions();
    @Mixin public SearchOptions search = new SearchOptions();
    @Mixin public IndexPrefixOptions indexPrefix = new IndexPrefixOptions();

    /** Without {@code --blob-store}, blobs are references by key, rendered again when read; uploads need one. */
    @Mixin public BlobStoreOptions blobs = new BlobStoreOptions();
    @Mixin public TopologyOptions topology = new TopologyOptions();

    public String documentsTopic() {
        return documents.topic();
    }

    /** Which database holds each repository: the topology file's, or else the job's for every repository. */
    public RepositoryDatabases repositoryDatabases() {
        return RepositoryDatabases.of(new MongoLocation(mongodb.uri, mongodb.database),
                topology.topology().map(Topology::databases).orElse(Map.of()));
    }

    /** Which blob store holds each repository's blobs: the topology file's, or else {@code --blob-store}. */
    public RepositoryBlobStores repositoryBlobStores() {
        return new RepositoryBlobStores(blobs, topology.topology().map(Topology::blobStores).orElse(Map.of()));
    }

    /** The names of the repositories' indices: under {@code --index-prefix}, with the topology file's aliases. */
    public IndexNames indices() {
        return new IndexNames(indexPrefix.prefix, topology.topology().map(Topology::aliases).orElse(Map.of()));
    }

    /** How each repository's index is laid out: the topology file's, or else the template's for every repository. */
    public Map<String, IndexLayout> indexLayouts() {
        return topology.topology().map(Topology::indexLayouts).orElse(Map.of());
    }
}
