package io.volumizer.api;

import static io.volumizer.api.auth.Authentication.administrators;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.eclipse.jetty.http.BadMessageException;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson;
import io.volumizer.api.auth.Authentication;
import io.volumizer.api.auth.TokenValidator;
import io.volumizer.api.commands.http.CommandsHandler;
import io.volumizer.api.commands.http.ThrottleHandler;
import io.volumizer.api.documents.Children;
import io.volumizer.api.documents.DocumentReads;
import io.volumizer.api.documents.DocumentWriteService;
import io.volumizer.api.documents.StoredBlobs;
import io.volumizer.api.documents.DocumentWrites;
import io.volumizer.api.documents.Documents;
import io.volumizer.api.documents.ElasticsearchChildren;
import io.volumizer.api.documents.MongoChildren;
import io.volumizer.api.internal.Admission;
import io.volumizer.api.internal.Admission.RequestClass;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.BackendUnavailableException;
import io.volumizer.api.internal.Correlation;
import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.RequestBodies;
import io.volumizer.api.internal.RequestJson;
import io.volumizer.stores.blob.BlobStoreException;
import io.volumizer.api.internal.Backends;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadAccess;
import io.volumizer.api.reads.ReadPolicy;
import io.volumizer.api.search.SearchHandler;
import io.volumizer.api.commands.CommandJobs;
import io.volumizer.api.commands.CommandReconciler;
import io.volumizer.api.commands.Commands;
import io.volumizer.api.commands.FlinkSessionJobs;
import io.volumizer.api.commands.RestCommandJobs;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.options.Options;
import io.volumizer.domain.topology.Topology;

/**
 * The repository's REST API: documents, children, ancestors and blobs read from MongoDB, search in
 * Elasticsearch, writes appended to the documents topic. Every route but /health/live needs a bearer token
 * ({@link Authentication}), and every read route is registered through {@link ReadAccess}, which applies what its
 * caller may read. Every request's body is capped as it is read ({@link RequestBodies}). Errors are JSON: {@code
 * {error, field, message, correlationId}} ({@link ApiException#CODES}), the correlation id also in a header and in the
 * log line that says what went wrong inside ({@link Correlation}); no answer carries an exception, a host or a
 * driver's words.
 */
public final class ApiServer {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The one route anyone may call: a liveness probe says nothing about the repository. */
    private static final String LIVENESS = "/health/live";
    /** Where the management port serves the jobs jar, for the operator to fetch a command's FlinkSessionJob from. */
    public static final String JOBS_JAR_PATH = "/artifacts/volumizer-jobs.jar";

    private ApiServer() {
    }

    /**
     * The API's two servers: its routes, each but /health/live for an authenticated caller, and the management port's
     * metrics and probes, for a scraper and kubelet, which have no token; and, when it runs commands, the schedule that
     * keeps their records up to date (a status read only reads them).
     */
    public static final class Servers {

        private final Javalin api;
        private final Javalin management;
        private final Optional<CommandReconciler> reconciler;
        private CommandReconciler.Schedule reconciling;

        private Servers(Javalin api, Javalin management, Optional<CommandReconciler> reconciler) {
            this.api = api;
            this.management = management;
            this.reconciler = reconciler;
        }

        public Javalin api() {
            return api;
        }

        public Javalin management() {
            return management;
        }

        public Servers start(ApiOptions options) {
            api.start(options.bind, options.port);
            management.start(options.metricsBind, options.metricsPort);
            reconciling = reconciler.map(CommandReconciler::reconcilingActive).orElse(null);
            return this;
        }

        public void stop() {
            api.stop();
            management.stop();
            if (reconciling != null) {
                reconciling.close();
            }
        }
    }

    public static Servers create(ApiOptions options, Backends backends) throws MalformedURLException {
        Documents documents = new Documents(backends.mongo);
        ReadPolicy policy = new ReadPolicy();
        Children children = options.childrenFrom == ApiOptions.ChildrenSource.mongodb ? new MongoChildren(documents)
                : new ElasticsearchChildren(backends.search, options.indexLayouts());
        Optional<Topology> topology = options.topology.topology();
        // What a read without a repository in its path reads: the topology's, or every one the search engine indexes.
        Supplier<List<String>> allRepositories = topology.<Supplier<List<String>>>map(t -> t::repositories)
                .orElse(backends.search::repositories);
        Cursors cursors = Cursors.sealedWith(System.getenv(ApiOptions.CURSOR_KEY_VARIABLE));
        DocumentReads reads = new DocumentReads(documents, children, new StoredBlobs(backends.blobs), allRepositories, options.maxPageSize,
                cursors);
        RequestJson json = new RequestJson(options.maxJsonBytes);
        DocumentWrites writes = new DocumentWrites(new DocumentWriteService(documents, policy, children, backends, topology,
                options.waitTimeout, backends.maxEventBytes, options.maxRecursiveDelete), json, options.maxUploadBytes);
        SearchHandler search = new SearchHandler(backends.search, allRepositories, options.indexLayouts(),
                options.maxPageSize, cursors, options.requestTimeout.multipliedBy(3).dividedBy(4));
        FlinkSessionClient session = new FlinkSessionClient(options.flink.rest);
        Optional<Commands> commandsService = options.jobsJar == null ? Optional.empty() : Optional.of(new Commands(session,
                commandJobs(options, session), backends.mongo, backends.searchEngine, options.indices(),
                options.jobArguments(), options.kafka.clientProperties()));
        CommandsHandler commands = new CommandsHandler(json, commandsService.orElse(null));
        ThrottleHandler throttles = new ThrottleHandler(json, new ThrottleSettings(options.kafka.clientProperties(),
                options.registry.url, options.documents.topics().control(), options.topicSettings));
        Admission admission = new Admission(options.admissionLimits(), options.admissionWait,
                options.callerSharePercent, ctx -> Caller.of(ctx).name());
        ReadAccess access = new ReadAccess(policy, backends.metrics);
        byte[] openApi = resource("openapi.json");
        Authentication authentication = new Authentication(new TokenValidator(options.oidc)::validate,
                options.penalties.failures(Clock.systemUTC()), options.penalties.proxies(),
                backends.metrics, Set.of(LIVENESS));

        Javalin app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.jsonMapper(new JavalinJackson(JSON, false));
            config.http.maxRequestSize = options.maxRequestBytes();
            // A body trickled in to hold a thread and a place is cut off (408) once it falls below its rate.
            config.jetty.modifyServletContextHandler(handler -> RequestBodies.install(handler, options.maxRequestBytes(),
                    options.minBodyBytesPerSecond));
        });
        app.before(Correlation::attach);
        app.after(Correlation::detach);
        app.beforeMatched(authentication::handle);
        backends.metrics.watch(admission);
        backends.metrics.install(app);
        Handler live = ctx -> ctx.json(Map.of("status", "UP"));
        // The management port's readiness says which backend is down and why; the public one only whether to retry.
        Handler ready = ctx -> {
            Map<String, String> status = backends.readiness();
            boolean up = status.values().stream().allMatch("UP"::equals);
            boolean overloaded = admission.overloaded();
            ctx.status(up && !overloaded ? 200 : 503).json(Map.of("status", !up ? "DOWN" : overloaded ? "OVERLOADED" : "UP",
                    "backends", status, "admission", admission.status()));
        };
        Handler publicReady = ctx -> {
            boolean up = backends.readiness().values().stream().allMatch("UP"::equals) && !admission.overloaded();
            ctx.status(up ? 200 : 503).json(Map.of("status", up ? "UP" : "DOWN"));
        };
        app.get(LIVENESS, live);
        app.get("/health/ready", publicReady);
        app.get("/api/v1/openapi.json", ctx -> ctx.contentType("application/json").result(openApi));
        app.get("/api/v1/search", admission.guard(RequestClass.search, access.reads(search::search)));
        app.get("/api/v1/{repository}/search", admission.guard(RequestClass.search, access.reads(search::search)));
        app.post("/api/v1/{repository}/documents", admission.guard(RequestClass.writes, writes::create));
        app.get("/api/v1/{repository}/documents/{id}", admission.guard(RequestClass.reads, access.reads(reads::get)));
        app.put("/api/v1/{repository}/documents/{id}", admission.guard(RequestClass.writes, writes::update));
        app.delete("/api/v1/{repository}/documents/{id}", admission.guard(RequestClass.writes, writes::delete));
        app.get("/api/v1/{repository}/documents/{id}/children", admission.guard(RequestClass.reads, access.reads(reads::children)));
        app.get("/api/v1/{repository}/documents/{id}/ancestors", admission.guard(RequestClass.reads, access.reads(reads::ancestors)));
        app.get("/api/v1/{repository}/documents/{id}/blob", admission.guard(RequestClass.blobs, access.reads(reads::blob)));
        app.get("/api/v1/documents/{id}", admission.guard(RequestClass.reads, access.reads(reads::get)));
        app.get("/api/v1/documents/{id}/children", admission.guard(RequestClass.reads, access.reads(reads::children)));
        app.get("/api/v1/documents/{id}/ancestors", admission.guard(RequestClass.reads, access.reads(reads::ancestors)));
        app.get("/api/v1/documents/{id}/blob", admission.guard(RequestClass.blobs, access.reads(reads::blob)));
        app.get("/api/v1/admin/throttle", admission.guard(RequestClass.reads, administrators(throttles::list)));
        app.put("/api/v1/admin/throttle", admission.guard(RequestClass.writes, administrators(throttles::change)));
        app.post("/api/v1/{repository}/reindex", admission.guard(RequestClass.writes, administrators(commands::reindex)));
        app.post("/api/v1/{repository}/bulk", admission.guard(RequestClass.writes, administrators(commands::bulk)));
        app.get("/api/v1/bulk/{commandId}", admission.guard(RequestClass.reads, access.reads(commands::status)));
        app.post("/api/v1/bulk/{commandId}/abort", admission.guard(RequestClass.writes, administrators(commands::abort)));
        app.post("/api/v1/bulk/{commandId}/resume", admission.guard(RequestClass.writes, administrators(commands::resume)));
        app.post("/api/v1/bulk/{commandId}/retry", admission.guard(RequestClass.writes, administrators(commands::retry)));

        app.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.error(), e.field(), e.getMessage()));
        app.exception(RequestBodies.RefusedBodyException.class, (e, ctx) -> {
            ApiException refusal = e.refusal();
            error(ctx, refusal.status(), refusal.error(), refusal.field(), refusal.getMessage());
        });
        // Jetty's refusals of what it reads itself: a malformed request.
        app.exception(BadMessageException.class, (e, ctx) -> error(ctx, e.getCode(), ApiException.codeOf(e.getCode()),
                null, "the request could not be read (HTTP " + e.getCode() + ")"));
        app.exception(Admission.CallerShareException.class, (e, ctx) -> {
            ctx.header("Retry-After", "1");
            error(ctx, 429, ApiException.TOO_MANY_REQUESTS, null, e.getMessage());
        });
        app.exception(Admission.OverloadedException.class, (e, ctx) -> {
            ctx.header("Retry-After", "1");
            error(ctx, 503, "overloaded", null, e.getMessage());
        });
        app.exception(BackendUnavailableException.class, (e, ctx) -> unavailable(ctx, e.backend(), e));
        app.exception(MongoTimeoutException.class, (e, ctx) -> unavailable(ctx, "mongodb", e));
        app.exception(BlobStoreException.class, (e, ctx) -> unavailable(ctx, "blob store", e));
        app.exception(MongoSocketException.class, (e, ctx) -> unavailable(ctx, "mongodb", e));
        app.exception(HttpResponseException.class, (e, ctx) -> error(ctx, e.getStatus(),
                ApiException.codeOf(e.getStatus()), null, e.getStatus() == 404
                        ? "no such route: see /api/v1/openapi.json" : "the request was refused (HTTP " + e.getStatus() + ")"));
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal", null, "the request failed inside the API: retry, and if it fails again report "
                    + "its correlation id");
        });

        Javalin management = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.jsonMapper(new JavalinJackson(JSON, false));
        });
        backends.metrics.serve(management, System.getenv(ApiOptions.METRICS_TOKEN_VARIABLE));
        management.get(LIVENESS, live);
        management.get("/health/ready", ready);
        if (options.jobsJar != null) {
            management.get(JOBS_JAR_PATH, ctx -> ctx.contentType("application/java-archive")
                    .result(Files.newInputStream(options.jobsJar)));
        }
        return new Servers(app, management, commandsService.map(Commands::reconciler));
    }

    /**
     * How commands' jobs are started: as FlinkSessionJobs (the Kubernetes client, configured from the pod's service
     * account, lives as long as the process), or through the session cluster's REST API.
     */
    private static CommandJobs commandJobs(ApiOptions options, FlinkSessionClient session) {
        if (options.sessionJobDeployment == null) {
            return new RestCommandJobs(session, options.jobsJar);
        }
        return new FlinkSessionJobs(new KubernetesClientBuilder().build(), options.sessionJobDeployment,
                options.jobsJarUri, options.sessionJobTimeout);
    }

    private static void unavailable(Context ctx, String backend, Exception e) {
        // The cause names hosts and drivers: the log's, not the client's.
        LOG.warn("{} {}: {} unavailable: {}", ctx.method(), ctx.path(), backend, e.getMessage());
        ctx.header("Retry-After", "5");
        error(ctx, 503, "unavailable", null, "the repository's " + backend + " is unavailable: retry after the "
                + "Retry-After seconds");
    }

    private static void error(Context ctx, int status, String error, String field, String message) {
        if (status == 413 || status == 408) {
            ctx.header("Connection", "close"); // the body's rest is never read (RequestBodies)
        }
        ObjectNode body = JSON.createObjectNode().put("error", error);
        if (field != null) {
            body.put("field", field);
        }
        body.put("message", message);
        body.put(Correlation.FIELD, Correlation.id(ctx));
        ctx.status(status).json(body);
    }

    private static byte[] resource(String name) {
        try (InputStream in = ApiServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " missing from the API's resources");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        ApiOptions options;
        try {
            options = Options.parse(new ApiOptions(), args);
        } catch (Options.InvalidOptionsException e) {
            System.err.println("api: " + e.reason());
            System.err.println(e.usage());
            System.exit(2);
            return;
        }
        if (options == null) {
            return; // help, printed
        }
        serve(options);
    }

    /** Opens the backends and starts the servers, which run until the JVM stops. */
    public static void serve(ApiOptions options) throws MalformedURLException {
        Backends backends = options.openBackends();
        Servers servers = create(options, backends).start(options);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            servers.stop();
            try {
                backends.close();
            } catch (Exception e) {
                LOG.warn("closing the backends: {}", e.getMessage());
            }
        }));
        LOG.info("API on http://{}:{}/api/v1 (OpenAPI: /api/v1/openapi.json), tokens of {}; metrics and probes on "
                + "http://{}:{}; backends {}", options.bind, servers.api().port(), options.oidc.issuer.issuer, options.metricsBind,
                servers.management().port(), backends.readiness());
    }
}
