package io.volumizer.api;

import java.time.Duration;

import io.volumizer.sinks.blob.BlobStoreOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the API server; every one has a default that matches the local services of {@code bin/volumizer up}. */
@Command(name = "api", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Serves the repository's REST API (reads: MongoDB; search: Elasticsearch; writes: the documents topic).")
public final class ApiOptions {

    /** Where children listings come from. */
    public enum ChildrenSource { elasticsearch, mongodb }

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    public String bind;

    @Option(names = "--port", defaultValue = "8090", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    public int port;

    @Option(names = "--token", required = true, defaultValue = "${env:VOLUMIZER_API_TOKEN}",
            description = "Bearer token that writes must present (default: $VOLUMIZER_API_TOKEN).")
    public String token;

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092", description = "Kafka (default: ${DEFAULT-VALUE}).")
    public String bootstrapServers;

    @Option(names = "--registry-url", defaultValue = "http://127.0.0.1:8085/apis/ccompat/v7",
            description = "Confluent-compatible schema registry (default: ${DEFAULT-VALUE}).")
    public String registryUrl;

    @Option(names = "--documents-topic", defaultValue = "volumizer.documents",
            description = "Where writes are appended, keyed by parent id (default: ${DEFAULT-VALUE}).")
    public String documentsTopic;

    @Option(names = "--mongodb-uri", defaultValue = "mongodb://127.0.0.1:27017", description = "MongoDB (default: ${DEFAULT-VALUE}).")
    public String mongodbUri;

    @Option(names = "--mongodb-database", defaultValue = "volumizer", description = "Database of the repositories (default: ${DEFAULT-VALUE}).")
    public String mongodbDatabase;

    @Option(names = "--elasticsearch-url", defaultValue = "http://127.0.0.1:9200", description = "Elasticsearch (default: ${DEFAULT-VALUE}).")
    public String elasticsearchUrl;

    @Option(names = "--index-prefix", defaultValue = "volumizer-", description = "Prefix of repository indices (default: ${DEFAULT-VALUE}).")
    public String indexPrefix;

    /** Uploaded blobs, and those an import stored: the import job's --blob-store (default: .volumizer/blobs). */
    @Mixin
    public BlobStoreOptions blobs = new BlobStoreOptions(".volumizer/blobs");

    @Option(names = "--children-from", defaultValue = "elasticsearch",
            description = "Children listings from ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; the local "
                    + "MongoDB stand-in scans its collection for them, a real MongoDB uses the (parentId, name) index).")
    public ChildrenSource childrenFrom;

    @Option(names = "--max-page-size", defaultValue = "100", description = "Largest page a client may ask for (default: ${DEFAULT-VALUE}).")
    public int maxPageSize;

    @Option(names = "--wait-timeout", defaultValue = "PT15S",
            description = "How long ?wait=true waits for a write to be visible in MongoDB (default: ${DEFAULT-VALUE}).")
    public Duration waitTimeout;

    @Option(names = "--backend-timeout", defaultValue = "PT3S",
            description = "Connect/select timeout towards each backend, so a dead one gives a fast 503 (default: ${DEFAULT-VALUE}).")
    public Duration backendTimeout;

    @Option(names = "--max-upload-bytes", defaultValue = "52428800", description = "Largest file upload (default: ${DEFAULT-VALUE}).")
    public long maxUploadBytes;

    /** @throws IllegalArgumentException naming the option at fault */
    public void validate() {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("--token (or $VOLUMIZER_API_TOKEN) must be set: writes need a bearer token");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0..65535, was " + port);
        }
        if (maxPageSize < 1 || maxPageSize > 10_000) {
            throw new IllegalArgumentException("--max-page-size must be 1..10000, was " + maxPageSize);
        }
        if (waitTimeout.isNegative() || waitTimeout.isZero() || backendTimeout.isNegative() || backendTimeout.isZero()) {
            throw new IllegalArgumentException("--wait-timeout and --backend-timeout must be positive");
        }
        blobs.validate();
        if (maxUploadBytes < 1) {
            throw new IllegalArgumentException("--max-upload-bytes must be positive, was " + maxUploadBytes);
        }
    }
}
