package io.volumizer.api.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClients;

import io.volumizer.options.pipeline.RepositoryServicesOptions;
import io.volumizer.schemas.codec.KafkaAvroSerde;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.mongodb.MongoRepositories;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchEngines;
import io.volumizer.stores.search.SearchTuning;

/** The API's clients of MongoDB, the search engine, Kafka and the blob store, with short timeouts so outages are 503s. */
public final class Backends implements AutoCloseable {

    /** Each repository's database; the shared one also keeps the commands' records. */
    public final MongoRepositories mongo;
    public final SearchEngine searchEngine;
    public final RepositorySearch search;
    public final KafkaProducer<String, DocumentEvent> producer;
    public final String documentsTopic;
    /** The largest event the producer sends: its max.request.size, less a record's key and batch headers. */
    public final long maxEventBytes;
    /** Each repository's blob store: uploads, and the blobs an import stored. */
    public final RepositoryBlobStores.Opened blobs;
    private final Admin kafkaAdmin;
    private final SchemaRegistryClient registry;
    private final int timeoutMillis;

    /** What the API and its backend calls measure, served at /metrics. */
    public final ApiMetrics metrics = new ApiMetrics();

    /**
     * @param backendTimeout how long a connection or a server selection may take
     * @param requestTimeout how long a backend's answer is awaited
     */
    public Backends(RepositoryServicesOptions options, Duration backendTimeout, Duration requestTimeout) {
        timeoutMillis = (int) backendTimeout.toMillis();
        int requestTimeoutMillis = (int) requestTimeout.toMillis();
        mongo = new MongoRepositories(options.repositoryDatabases(), uri -> MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(uri))
                .applyToClusterSettings(c -> c.serverSelectionTimeout(timeoutMillis, TimeUnit.MILLISECONDS))
                .applyToSocketSettings(s -> s.connectTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                        .readTimeout(requestTimeoutMillis, TimeUnit.MILLISECONDS))
                .applyToConnectionPoolSettings(p -> p.maxSize(200).maxWaitTime(timeoutMillis, TimeUnit.MILLISECONDS))
                .addCommandListener(metrics.mongoCommands())
                .build()));
        searchEngine = SearchEngines.open(options.search, new SearchTuning(backendTimeout, requestTimeout,
                backendTimeout, 200, metrics.searchRequests()));
        search = new RepositorySearch(searchEngine, options.indices());
        Properties producerConfig = options.kafka.clientProperties();
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMillis);
        producerConfig.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMillis);
        producerConfig.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeoutMillis + 1);
        producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                KafkaAvroSerde.serializer(options.registry.url, DocumentEvent.class));
        documentsTopic = options.documentsTopic();
        maxEventBytes = Long.parseLong(producerConfig.getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                String.valueOf(1024 * 1024)).toString()) - 4096;
        Properties adminConfig = options.kafka.clientProperties();
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMillis);
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMillis);
        kafkaAdmin = Admin.create(adminConfig);
        registry = new SchemaRegistryClient(options.registry.url);
        blobs = options.repositoryBlobStores().open();
    }

    /** Each backend: "UP" or why not (for the management port and the log only: it names hosts and drivers). */
    public Map<String, String> readiness() {
        Map<String, String> status = new LinkedHashMap<>();
        status.put("mongodb", check(() -> mongo.all().forEach(database -> database.runCommand(new Document("ping", 1)))));
        status.put("search", check(search::ping)); // one key, whichever engine the cluster turns out to be
        status.put("kafka", check(() -> kafkaAdmin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMillis))
                .clusterId().get(timeoutMillis, TimeUnit.MILLISECONDS)));
        status.put("registry", check(registry::subjects));
        return status;
    }

    private interface Check {
        void run() throws Exception;
    }

    private static String check(Check check) {
        try {
            check.run();
            return "UP";
        } catch (Exception e) {
            Throwable cause = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
            return "DOWN: " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
    }

    @Override
    public void close() throws Exception {
        producer.close(java.time.Duration.ofSeconds(5));
        kafkaAdmin.close(java.time.Duration.ofSeconds(5));
        searchEngine.close();
        mongo.close();
        blobs.close();
    }
}
