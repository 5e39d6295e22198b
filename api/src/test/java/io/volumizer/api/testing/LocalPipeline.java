package io.volumizer.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.ApiOptions;
import io.volumizer.options.Options;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.stores.blob.BlobStoreOptions;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyExistsException;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * A small seeded repository made by the real pipeline for a test: topics, database and index of its own; the
 * generate and import-and-index jobs submitted to the local session cluster with {@code bin/volumizer job}, as
 * a user would; the import-and-index job left running, so event-sourced writes are applied; everything stopped
 * and deleted by {@link #close()}.
 */
public final class LocalPipeline implements AutoCloseable {

    public static final String KAFKA = System.getProperty("volumizer.kafka.bootstrap");
    public static final String REGISTRY = System.getProperty("volumizer.registry.url");
    public static final String MONGODB = System.getProperty("volumizer.mongodb.uri");
    public static final String SEARCH = System.getProperty("volumizer.search.url." + System.getProperty("volumizer.search.engine"));
    public static final String S3 = System.getProperty("volumizer.s3.endpoint");
    public static final String FLINK = System.getProperty("volumizer.flink.rest");
    /** The tests' bucket on the local S3-compatible server; each pipeline stores its blobs under a prefix of its own. */
    public static final String BUCKET = "volumizer-it";

    public final String run = UUID.randomUUID().toString().substring(0, 8);
    /** The run's repository: where its documents go without a topology, and its root's name. */
    public final String repository;
    /** The repositories its documents are in: the topology's, or the run's one. */
    public final List<String> repositories;
    public final GeneratorSettings settings;
    public final List<DocumentEvent> generated = new ArrayList<>();
    private final List<LocalApi> apis = new ArrayList<>();
    private final Path root;
    private final List<String> pipeline;
    private Path topologyFile;
    private String importJob;

    /** Generates {@code customers} customers with {@code statements} statements per account into a new repository. */
    public LocalPipeline(String repositoryPrefix, long seed, long customers, int statements) throws Exception {
        this(repositoryPrefix, seed, customers, statements, null);
    }

    /**
     * @param topology a topology file's text that every job and the API are given, in which {@code ${repository}}
     *                 stands for this pipeline's repository; null for none
     */
    public LocalPipeline(String repositoryPrefix, long seed, long customers, int statements, String topology)
            throws Exception {
        repository = repositoryPrefix + run;
        settings = new GeneratorSettings(seed, customers, statements, 2.0, GeneratorSettings.DEFAULT_LAST_PERIOD, repository);
        root = findRoot();
        List<String> options = new ArrayList<>(List.of("--bootstrap-servers", KAFKA, "--registry-url", REGISTRY,
                "--mongodb-uri", MONGODB, "--search-url", SEARCH, "--documents-topic", documentsTopic(),
                "--imported-topic", "it." + run + ".imported", "--deadletter-topic", "it." + run + ".deadletter",
                "--mongodb-database", database(), "--index-prefix", indexPrefix(), "--partitions", "2"));
        if (topology != null) {
            topologyFile = Files.createTempFile("topology-" + run, ".yaml");
            Files.writeString(topologyFile, topology.replace("${repository}", repository));
            options.addAll(List.of("--topology", topologyFile.toString()));
            repositories = TopologyFile.load(topologyFile).repositories();
        } else {
            repositories = List.of(repository);
        }
        pipeline = List.copyOf(options);
        generated.addAll(new BankGenerator(settings).documents());
        List<String> generate = new ArrayList<>(List.of("submit", "generate", "--seed", Long.toString(seed),
                "--customers", Long.toString(customers), "--statements-per-account", Integer.toString(statements),
                "--repository", repository));
        generate.addAll(pipeline);
        job(generate);
        createBucket();
        List<String> importAndIndex = new ArrayList<>(List.of("submit", "--json", "import-and-index", "--group-id", "it-" + run,
                "--checkpoint-interval", "PT1S", "--import-flush-interval", "PT0.1S", "--index-flush-interval", "PT0.2S",
                "--blob-store", blobStore(), "--s3-endpoint", S3));
        importAndIndex.addAll(pipeline);
        importJob = new ObjectMapper().readTree(job(importAndIndex)).path("jobId").asText();
        assertThat(importJob).as("import-and-index submitted").matches("[0-9a-f]{32}");
    }

    /**
     * Generates more customers into the repository, {@code from} (the first after the pipeline's) up to {@code to}
     * (exclusive), at most {@code docsPerSecond}, beside what runs; returns the documents that makes.
     */
    public List<DocumentEvent> generateMore(long from, long to, double docsPerSecond) throws Exception {
        GeneratorSettings more = new GeneratorSettings(settings.seed(), to, settings.statementsPerAccount(),
                settings.meanAccountsPerCustomer(), settings.lastPeriod(), repository);
        List<String> generate = new ArrayList<>(List.of("submit", "generate", "--seed", Long.toString(more.seed()),
                "--customers", Long.toString(to), "--from-customer", Long.toString(from), "--statements-per-account",
                Integer.toString(more.statementsPerAccount()), "--max-docs-per-second", Double.toString(docsPerSecond),
                "--repository", repository));
        generate.addAll(pipeline);
        job(generate);
        Set<String> existing = new HashSet<>();
        generated.forEach(document -> existing.add(document.getId()));
        return new BankGenerator(more).documents().stream().filter(d -> !existing.contains(d.getId())).toList();
    }

    /** The import-and-index job the pipeline runs. */
    public String importJob() {
        return importJob;
    }

    public String documentsTopic() {
        return "it." + run + ".documents";
    }

    public String database() {
        return "it_" + run;
    }

    public String indexPrefix() {
        return "it-" + run + "-";
    }

    /** Where the import stores rendered blobs and the API uploads: S3, on the local S3-compatible server. */
    public String blobStore() {
        return "s3://" + BUCKET + "/" + run + "/";
    }

    /** A client of the local S3-compatible server; the caller closes it. */
    public static S3Client s3() {
        BlobStoreOptions options = new BlobStoreOptions();
        options.s3Endpoint = URI.create(S3);
        return options.s3Client();
    }

    private static void createBucket() {
        try (S3Client s3 = s3()) {
            s3.createBucket(b -> b.bucket(BUCKET));
        } catch (BucketAlreadyOwnedByYouException | BucketAlreadyExistsException e) {
            // made by an earlier test run
        }
    }

    /** The jobs jar this build made (not its test-jar): what the API submits reindex and bulk commands from. */
    public Path jobsJar() throws IOException {
        return JobsJar.path();
    }

    /**
     * API options pointing at this pipeline's stores and topic and at the local identity provider, on free ports;
     * {@code overrides} come last and win.
     */
    public ApiOptions apiOptions(String... overrides) {
        List<String> args = new ArrayList<>(topologyFile == null ? List.of() : List.of("--topology", topologyFile.toString()));
        args.addAll(List.of("--oidc-issuer", Tokens.ISSUER.toString(), "--metrics-port", "0", "--bootstrap-servers", KAFKA, "--registry-url",
                REGISTRY, "--mongodb-uri", MONGODB, "--mongodb-database", database(), "--search-url",
                SEARCH, "--index-prefix", indexPrefix(), "--documents-topic", documentsTopic(),
                "--blob-store", blobStore(), "--s3-endpoint", S3, "--port", "0", "--max-page-size", "50",
                "--flink-rest", FLINK, "--job-option=--imported-topic=it." + run + ".imported",
                "--job-option=--deadletter-topic=it." + run + ".deadletter", "--job-option=--checkpoint-interval=PT1S"));
        try {
            args.addAll(List.of("--jobs-jar", jobsJar().toString()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        args.addAll(List.of(overrides));
        return Options.parseWithOverrides(new ApiOptions(), args);
    }

    /**
     * The API on this pipeline ({@link #apiOptions}), once it finds every generated document in the index; it is
     * closed with the pipeline.
     */
    public LocalApi api(String... overrides) throws Exception {
        LocalApi started = new LocalApi(apiOptions(overrides));
        apis.add(started);
        awaitIndexed(started.base);
        return started;
    }

    /** Waits until the API at {@code apiBase} finds every generated document in the index (the import is through). */
    public void awaitIndexed(String apiBase) throws Exception {
        awaitIndexed(apiBase, generated.size());
    }

    /** Waits until the API at {@code apiBase} finds {@code documents} documents in the index, as an administrator. */
    public void awaitIndexed(String apiBase, long documents) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest count = HttpRequest.newBuilder(URI.create(apiBase + "/api/v1/search?repository="
                + String.join(",", repositories) + "&limit=1")).header("Authorization", "Bearer " + Tokens.service()).build();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        long indexed = 0;
        while (indexed < documents && System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(count, HttpResponse.BodyHandlers.ofString());
            indexed = response.statusCode() == 200
                    ? new ObjectMapper().readTree(response.body()).path("total").path("value").asLong() : 0;
            if (indexed < documents) {
                Thread.sleep(300);
            }
        }
        assertThat(indexed).as("documents imported and indexed").isEqualTo(documents);
    }

    @Override
    public void close() throws Exception {
        for (LocalApi api : apis) {
            api.close();
        }
        if (importJob != null) {
            job(List.of("stop", importJob));
        }
        List<String> reset = new ArrayList<>(List.of("reset"));
        reset.addAll(repositories);
        reset.addAll(pipeline);
        job(reset);
        if (topologyFile != null) {
            Files.delete(topologyFile);
        }
    }

    /** Runs {@code bin/volumizer job ...} and returns what it printed. */
    private String job(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(root.resolve("bin/volumizer").toString(), "job"));
        command.addAll(args);
        Process process = new ProcessBuilder(command).directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("bin/volumizer job %s:%n%s", args, output).isZero();
        return output;
    }

    private static Path findRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/volumizer"))) {
                return dir;
            }
        }
        throw new IllegalStateException("bin/volumizer not found above " + Path.of("").toAbsolutePath());
    }
}
