package io.volumizer.stores.search.elasticsearch;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;

import org.apache.http.Header;
import org.apache.http.HttpHeaders;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequestInterceptor;
import org.apache.http.HttpResponseInterceptor;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.nio.client.HttpAsyncClientBuilder;
import org.apache.http.message.BasicHeader;
import org.apache.http.nio.entity.NStringEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchOptions.Credentials;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchTuning;

import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Elasticsearch 7 or OpenSearch through Elasticsearch's low-level REST client: the project's one client of them,
 * built in {@link #connect} and shared by the indices, writers and reads it hands out. The requests it sends (index
 * templates, aliases, bulk writes with external versions, sliced scrolls, searches with aggregations) mean the same
 * to both; points in time are OpenSearch's. Before its first request it asks the cluster what it is
 * ({@code GET /}) and refuses, with an error that says so, a cluster that is neither or not the engine the options
 * named.
 */
public final class Elasticsearch7Engine implements SearchEngine {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final String STARTED = "volumizer.search.started";
    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    private final RestClient client;
    private final SearchOptions.Engine named;
    private final String nodes;
    private final Elasticsearch7Reader reader = new Elasticsearch7Reader(this);
    /** What the cluster said it is; null until its first answer to {@code GET /}. */
    private volatile Identity identity;

    private Elasticsearch7Engine(RestClient client, SearchOptions.Engine named, String nodes) {
        this.client = client;
        this.named = named;
        this.nodes = nodes;
    }

    /** A cluster's engine and version, as its root answers them. */
    public record Identity(SearchOptions.Engine engine, String version) {

        /**
         * Reads a cluster's answer to {@code GET /}: OpenSearch says so in {@code version.distribution};
         * Elasticsearch does not, and only its major version 7 speaks the requests sent here.
         *
         * @throws SearchException when the answer is neither engine's, or an Elasticsearch other than 7
         */
        static Identity of(JsonNode root, String nodes) throws SearchException {
            String version = root.path("version").path("number").asText("");
            if (version.isEmpty()) {
                throw unusable("the search cluster at " + nodes + " answered GET / without a version: it is not "
                        + "Elasticsearch or OpenSearch (check --search-url)");
            }
            if ("opensearch".equals(root.path("version").path("distribution").asText())) {
                return new Identity(SearchOptions.Engine.opensearch, version);
            }
            if (!version.startsWith("7.")) {
                throw unusable("the search cluster at " + nodes + " runs Elasticsearch " + version + ": the requests "
                        + "sent here are Elasticsearch 7's (and OpenSearch's)");
            }
            return new Identity(SearchOptions.Engine.elasticsearch, version);
        }

        /** Whether slices can share a point in time: OpenSearch from 2.4 (its version known, so not Serverless). */
        boolean hasPointInTime() {
            Matcher majorMinor = MAJOR_MINOR.matcher(version);
            if (engine != SearchOptions.Engine.opensearch || !majorMinor.find()) {
                return false;
            }
            int major = Integer.parseInt(majorMinor.group(1));
            return major > 2 || major == 2 && Integer.parseInt(majorMinor.group(2)) >= 4;
        }
    }

    /**
     * A cluster this client cannot use, as a service that cannot serve: no record is to blame, so no writer may
     * dead-letter one for it; the jobs back off and restart from their checkpoints until the options are mended.
     */
    private static SearchException unusable(String reason) {
        return new SearchException(SearchException.Kind.UNAVAILABLE, reason, reason, null);
    }

    /**
     * Connects to the nodes of {@code options} (round-robin, skipping those that do not answer), under their path,
     * authenticated by {@code credentials} on every request (no challenge round trip; or each request signed with the
     * AWS SDK's default credentials), trusting the options' CA certificates for https.
     */
    public static Elasticsearch7Engine connect(SearchOptions options, Credentials credentials, SearchTuning tuning) {
        // From URIs, not HttpHost.create: a node may have a path. Port -1 is the scheme's.
        HttpHost[] nodes = options.nodes().stream().map(node -> new HttpHost(node.getHost(), node.getPort(),
                node.getScheme())).toArray(HttpHost[]::new);
        RestClientBuilder builder = RestClient.builder(nodes);
        if (!options.pathPrefix().isEmpty()) {
            builder.setPathPrefix(options.pathPrefix());
        }
        if (credentials.authorization() != null) {
            builder.setDefaultHeaders(new Header[] {new BasicHeader(HttpHeaders.AUTHORIZATION, credentials.authorization())});
        }
        SSLContext trust = options.trust();
        builder.setHttpClientConfigCallback(http -> {
            if (trust != null) {
                http.setSSLContext(trust);
            }
            if (tuning.maxConnections() > 0) {
                http.setMaxConnTotal(tuning.maxConnections()).setMaxConnPerRoute(tuning.maxConnections());
            }
            if (tuning.timer() != null) {
                timeRequests(http, tuning.timer());
            }
            if (credentials instanceof Credentials.AwsSigV4 aws) {
                http.addInterceptorLast(new AwsSigV4Interceptor(aws.region(), aws.service(),
                        DefaultCredentialsProvider.create(), Clock.systemUTC()));
            }
            return http;
        });
        builder.setRequestConfigCallback(request -> {
            if (tuning.connectTimeout() != null) {
                request.setConnectTimeout(millis(tuning.connectTimeout()));
            }
            if (tuning.socketTimeout() != null) {
                request.setSocketTimeout(millis(tuning.socketTimeout()));
            }
            if (tuning.poolTimeout() != null) {
                request.setConnectionRequestTimeout(millis(tuning.poolTimeout()));
            }
            return request;
        });
        Elasticsearch7Engine engine = new Elasticsearch7Engine(builder.build(), options.engine, options.urls);
        if (credentials instanceof Credentials.AwsSigV4 aws && SearchOptions.AWS_SERVERLESS.equals(aws.service())) {
            // OpenSearch Serverless has no GET /: what it is, its signing service says.
            engine.identity = new Identity(SearchOptions.Engine.opensearch, "serverless");
        }
        return engine;
    }

    private static int millis(Duration duration) {
        return (int) duration.toMillis();
    }

    private static void timeRequests(HttpAsyncClientBuilder http, SearchTuning.RequestTimer timer) {
        http.addInterceptorFirst((HttpRequestInterceptor) (request, context) ->
                        context.setAttribute(STARTED, System.nanoTime()))
                .addInterceptorLast((HttpResponseInterceptor) (response, context) -> {
                    if (context.getAttribute(STARTED) instanceof Long started) {
                        timer.record(System.nanoTime() - started);
                    }
                });
    }

    /** The engine the cluster said it is, else the one the options named, else "search engine". */
    @Override
    public String name() {
        Identity known = identity;
        if (known != null) {
            return known.engine().name();
        }
        return named == SearchOptions.Engine.auto ? "search engine" : named.name();
    }

    @Override
    public String version() throws SearchException {
        return identity().version();
    }

    /**
     * What the cluster is: asked once, before the first request; when it refuses to say, the engine the options named
     * (with auto: refused).
     *
     * @throws SearchException when the cluster does not answer, answers with an error, is not the engine the options
     *                         named or no engine spoken to here
     */
    public Identity identity() throws SearchException {
        Identity known = identity;
        if (known == null) {
            JsonNode root;
            try {
                root = readAnswer(new Request("GET", "/"));
            } catch (SearchException e) {
                if (e.isServiceFault()) {
                    throw e;
                }
                if (named != SearchOptions.Engine.auto) {
                    // A user without the cluster monitor privilege (Amazon OpenSearch Service's fine-grained access
                    // control) is refused GET /: the engine named is taken at its word.
                    return identity = new Identity(named, "not asked: GET / " + e.reason());
                }
                // Not the caller's request: a 404 or a 400 of GET / says nothing of its index or its query.
                throw unusable("the search cluster at " + nodes + " answered GET / with " + e.kind() + " (" + e.reason()
                        + "): name the engine (--search-engine) if its users may not ask");
            }
            known = Identity.of(root, nodes);
            if (named != SearchOptions.Engine.auto && named != known.engine()) {
                throw unusable("--search-engine " + named + ", but the search cluster at " + nodes + " runs "
                        + known.engine() + " " + known.version());
            }
            identity = known;
        }
        return known;
    }

    @Override
    public SearchIndices indices(IndexNames names, Map<String, IndexLayout> layouts) {
        return new Elasticsearch7Indices(this, names, layouts);
    }

    @Override
    public SearchReader reader() {
        return reader;
    }

    @Override
    public void checkHealth(Duration timeout) throws SearchException {
        Request request = new Request("GET", "/_cluster/health");
        request.addParameter("wait_for_status", "yellow");
        request.addParameter("timeout", timeout.toMillis() + "ms");
        send(request);
    }

    /** The client itself, for this implementation's tests. */
    RestClient client() {
        return client;
    }

    /**
     * Sends a request, once the cluster is known to be an engine spoken to here; an error the cluster answers with,
     * or none, is thrown as a {@link SearchException}.
     */
    Response send(Request request) throws SearchException {
        identity();
        return perform(request);
    }

    private Response perform(Request request) throws SearchException {
        try {
            return client.performRequest(request);
        } catch (IOException e) {
            throw Elasticsearch7Errors.of(e);
        }
    }

    /** Sends a request and reads its JSON answer. */
    JsonNode read(Request request) throws SearchException {
        identity();
        return readAnswer(request);
    }

    private JsonNode readAnswer(Request request) throws SearchException {
        Response response = perform(request);
        try (InputStream in = response.getEntity().getContent()) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw Elasticsearch7Errors.of(e);
        }
    }

    /** A request with a JSON body. */
    static Request request(String method, String path, JsonNode body) {
        Request request = new Request(method, path);
        request.setEntity(new NStringEntity(body.toString(), ContentType.APPLICATION_JSON));
        return request;
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            // nothing left to do about it: the connections are being dropped anyway
        }
    }
}
