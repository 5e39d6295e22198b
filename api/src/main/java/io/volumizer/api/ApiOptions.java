package io.volumizer.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.volumizer.api.auth.OidcOptions;
import io.volumizer.api.auth.PenaltyOptions;
import io.volumizer.api.internal.Admission;
import io.volumizer.api.internal.Backends;

import io.volumizer.options.Options;
import io.volumizer.options.endpoints.FlinkOptions;
import io.volumizer.options.pipeline.RepositoryServicesOptions;
import picocli.CommandLine.Command;
import io.volumizer.options.pipeline.TopicSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options of the API server. The repository's services (writes are appended to its documents topic) and the blob
 * store are those the jobs use too, with the same names and defaults (the local services of {@code bin/volumizer up}).
 */
@Command(name = "api", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Serves the repository's REST API (reads: MongoDB; search: Elasticsearch; writes: the documents topic).")
public final class ApiOptions extends RepositoryServicesOptions implements Options.Validated {

    /** Where children listings come from. */
    public enum ChildrenSource { elasticsearch, mongodb }

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    public String bind;

    @Option(names = "--port", defaultValue = "8090", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    public int port;

    @Option(names = "--metrics-bind", defaultValue = "127.0.0.1", description = "Address the management port listens "
            + "on: metrics and probes, without a token (default: ${DEFAULT-VALUE}; in a pod, where kubelet and "
            + "Prometheus reach it, 0.0.0.0, unexposed by the Service).")
    public String metricsBind;

    @Option(names = "--metrics-port", defaultValue = "8091", description = "The management port: /metrics, /health/live "
            + "and /health/ready; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    public int metricsPort;

    /** Which bearer tokens every request but /health/live must present. */
    @Mixin public OidcOptions oidc = new OidcOptions();

    /** How failed authentications are slowed down. */
    @Mixin public PenaltyOptions penalties = new PenaltyOptions();

    /** Where reindex and bulk commands run: the session cluster. */
    @Mixin public FlinkOptions flink = new FlinkOptions();
    /** How the control topic is made if the API writes the first throttle. */
    @Mixin public TopicSettings topicSettings = new TopicSettings();

    @Option(names = "--jobs-jar", description = "The jobs jar commands are submitted from; without it, reindex and bulk commands answer 503.")
    public Path jobsJar;

    @Option(names = "--session-job-deployment", paramLabel = "FLINKDEPLOYMENT", description = "Run each command as a "
            + "FlinkSessionJob on this session FlinkDeployment, in the API's namespace, through the Flink Kubernetes "
            + "Operator (which fetches the jobs jar from --jobs-jar-uri), instead of uploading --jobs-jar to --flink-rest. "
            + "Their state, exceptions and metrics are still read from --flink-rest.")
    public String sessionJobDeployment;

    @Option(names = "--jobs-jar-uri", description = "Where the operator fetches the jobs jar for --session-job-deployment: "
            + "this API's management port serves --jobs-jar at " + ApiServer.JOBS_JAR_PATH + ".")
    public String jobsJarUri;

    @Option(names = "--session-job-timeout", defaultValue = "PT2M", description = "How long a command waits for the "
            + "operator to submit its FlinkSessionJob before it fails and the resource is removed (default: ${DEFAULT-VALUE}).")
    public Duration sessionJobTimeout;

    @Option(names = "--job-option", paramLabel = "OPTION", description = "An option given to the commands' jobs besides "
            + "the services above, e.g. --job-option=--checkpoint-interval=PT2S (repeatable).")
    public List<String> jobOptions = new ArrayList<>();

    @Option(names = "--children-from", defaultValue = "elasticsearch",
            description = "Children listings from ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; the local "
                    + "MongoDB stand-in scans its collection for them, a real MongoDB uses the (parentId, name) index).")
    public ChildrenSource childrenFrom;

    @Option(names = "--max-page-size", defaultValue = "100", description = "Largest page a client may ask for (default: ${DEFAULT-VALUE}).")
    public int maxPageSize;

    @Option(names = "--wait-timeout", defaultValue = "PT15S",
            description = "How long ?wait=true waits for a write to be visible in MongoDB (default: ${DEFAULT-VALUE}).")
    public Duration waitTimeout;

    @Option(names = "--backend-timeout", defaultValue = "PT1S",
            description = "Connect/select timeout towards each backend, so a dead one gives a fast 503 (default: ${DEFAULT-VALUE}).")
    public Duration backendTimeout;

    @Option(names = "--request-timeout", defaultValue = "PT2S", description = "Longest a read or a search waits for its "
            + "backend's answer: no request thread waits on a backend longer (default: ${DEFAULT-VALUE}).")
    public Duration requestTimeout;

    /** Places per class of request when --max-concurrent does not name it. */
    private static final Map<Admission.RequestClass, Integer> CONCURRENCY = Map.of(Admission.RequestClass.reads, 16,
            Admission.RequestClass.search, 8, Admission.RequestClass.writes, 8, Admission.RequestClass.blobs, 4);

    @Option(names = "--max-concurrent", split = ",", paramLabel = "CLASS=N", description = "Requests of a class served "
            + "at once: reads (document, children, ancestors), search, writes, blobs; more wait --admission-wait for a "
            + "place, then get 503 (default: reads=16,search=8,writes=8,blobs=4).")
    public Map<Admission.RequestClass, Integer> maxConcurrent = new EnumMap<>(Admission.RequestClass.class);

    @Option(names = "--caller-share", defaultValue = "75", paramLabel = "PERCENT", description = "How much of a "
            + "class's places one caller may hold at once; past it the caller's next request gets 429 and Retry-After, "
            + "so that no one user takes every place (100: no share; default: ${DEFAULT-VALUE}).")
    public int callerSharePercent;

    @Option(names = "--admission-wait", defaultValue = "PT0.02S", description = "Longest a request waits for a place "
            + "before it is refused with 503 and Retry-After (default: ${DEFAULT-VALUE}).")
    public Duration admissionWait;

    @Option(names = "--max-upload-bytes", defaultValue = "52428800", description = "Largest file upload (default: ${DEFAULT-VALUE}).")
    public long maxUploadBytes;

    @Option(names = "--max-json-bytes", defaultValue = "1048576", description = "Largest JSON body (a document, a "
            + "command), cut while it is read; a document's JSON part of a multipart form too (default: ${DEFAULT-VALUE}).")
    public long maxJsonBytes;

    @Option(names = "--min-body-rate", defaultValue = "4096", paramLabel = "BYTES_PER_SECOND", description = "Slowest a "
            + "request body may arrive, on average over the time the API waits for its bytes (the first second free): "
            + "a slower one is cut off with 408 (default: "
            + "${DEFAULT-VALUE}).")
    public long minBodyBytesPerSecond;

    @Option(names = "--max-recursive-delete", defaultValue = "10000", description = "Most descendants a "
            + "DELETE ?recursive=true deletes; a larger folder is the bulk delete command's (default: ${DEFAULT-VALUE}).")
    public int maxRecursiveDelete;

    /** Where an operator gives the management port's scrape credential: a secret, never an option. */
    public static final String METRICS_TOKEN_VARIABLE = "VOLUMIZER_METRICS_TOKEN";
    /** Where an operator gives the key cursors are sealed with, the same for every replica: a secret too. */
    public static final String CURSOR_KEY_VARIABLE = "VOLUMIZER_CURSOR_KEY";

    /** The largest request body any route reads: a file and its document's JSON, with a form's boundaries. */
    public long maxRequestBytes() {
        return maxUploadBytes + maxJsonBytes + 64 * 1024;
    }

    /** Clients of the backends these options name, with their timeouts; the caller closes them. */
    public Backends openBackends() {
        return new Backends(this, backendTimeout, requestTimeout);
    }

    /** The places of each class of request: --max-concurrent over the defaults. */
    public Map<Admission.RequestClass, Integer> admissionLimits() {
        Map<Admission.RequestClass, Integer> limits = new EnumMap<>(CONCURRENCY);
        limits.putAll(maxConcurrent);
        return limits;
    }

    /**
     * What the commands' jobs are given: this API's services, topics (--topics-of names the jobs' other topics too),
     * blob store and topology, then --job-option.
     */
    public List<String> jobArguments() {
        List<String> arguments = new ArrayList<>();
        for (Object services : List.of(kafka, registry, documents, topicSettings, mongodb, search, indexPrefix, blobs, topology)) {
            arguments.addAll(Options.arguments(services));
        }
        arguments.addAll(jobOptions);
        return arguments;
    }

    @Override
    public void validate() {
        Options.require(port >= 0 && port <= 65535, "--port must be 0..65535, was " + port);
        Options.require(metricsPort >= 0 && metricsPort <= 65535, "--metrics-port must be 0..65535, was " + metricsPort);
        oidc.validate();
        penalties.validate();
        Options.require((sessionJobDeployment == null) == (jobsJarUri == null),
                "--session-job-deployment and --jobs-jar-uri go together");
        Options.require(sessionJobDeployment == null || jobsJar != null, "--session-job-deployment needs --jobs-jar: "
                + "the jar the operator fetches from this API");
        Options.require(!sessionJobTimeout.isNegative() && !sessionJobTimeout.isZero(),
                "--session-job-timeout must be positive, was " + sessionJobTimeout);
        Options.require(maxPageSize >= 1 && maxPageSize <= 10_000, "--max-page-size must be 1..10000, was " + maxPageSize);
        Options.require(!waitTimeout.isNegative() && !waitTimeout.isZero(), "--wait-timeout must be positive, was " + waitTimeout);
        Options.require(!backendTimeout.isNegative() && !backendTimeout.isZero(),
                "--backend-timeout must be positive, was " + backendTimeout);
        Options.require(requestTimeout.compareTo(backendTimeout) > 0,
                "--request-timeout must be longer than --backend-timeout, was " + requestTimeout);
        maxConcurrent.forEach((requestClass, places) -> Options.require(places >= 1,
                "--max-concurrent " + requestClass + " must be at least 1, was " + places));
        Options.require(callerSharePercent >= 1 && callerSharePercent <= 100,
                "--caller-share must be 1..100, was " + callerSharePercent);
        Options.require(!admissionWait.isNegative() && admissionWait.compareTo(requestTimeout) < 0,
                "--admission-wait must be 0 or more and shorter than --request-timeout, was " + admissionWait);
        Options.require(maxUploadBytes >= 1, "--max-upload-bytes must be positive, was " + maxUploadBytes);
        Options.require(maxJsonBytes >= 1024 && maxJsonBytes <= Integer.MAX_VALUE,
                "--max-json-bytes must be 1024..2147483647, was " + maxJsonBytes);
        Options.require(minBodyBytesPerSecond >= 0, "--min-body-rate must be 0 or more, was " + minBodyBytesPerSecond);
        Options.require(maxRecursiveDelete >= 0, "--max-recursive-delete must be 0 or more, was " + maxRecursiveDelete);
        documents.validate();
        topicSettings.validate();
        search.validate();
        indexPrefix.validate();
        topology.validate();
        Options.require(blobs.configured(), "--blob-store must be set: uploads are stored there, and the blobs an import "
                + "stored are read from there");
        blobs.validate();
    }
}
