package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchOptions;
import io.volumizer.stores.search.SearchOptions.Credentials;
import io.volumizer.stores.search.SearchTuning;

/**
 * The one client, as a node sees it: a tiny local HTTP(S) server answers what a test tells it to and keeps each
 * request's path and Authorization header.
 */
class Elasticsearch7EngineTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    @TempDir
    Path folder;

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    /** The requests of what the cluster is (GET / under the node's path), which every node answers with this. */
    private final List<String> identifications = new CopyOnWriteArrayList<>();
    private String root = "{\"version\":{\"number\":\"7.10.2\"},\"tagline\":\"You Know, for Search\"}";
    private int rootStatus = 200;
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A node answering {@code GET /} with {@link #root}, every other request with {@code status} and {@code body}. */
    private String node(HttpServer node, int status, String body) {
        server = node;
        server.createContext("/", exchange -> {
            String request = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            boolean identifying = request.equals("GET /") || request.equals("GET /es/");
            (identifying ? identifications : requests).add(request);
            if (!identifying) {
                authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            }
            exchange.getRequestBody().readAllBytes();
            byte[] answer = (identifying ? root : body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(identifying ? rootStatus : status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }

    private String node(int status, String body) throws IOException {
        return node(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0), status, body);
    }

    private static SearchOptions options(String urls) {
        SearchOptions options = new SearchOptions();
        options.urls = urls;
        return options;
    }

    @Test
    void everyRequestCarriesTheCredentialsAndGoesUnderTheNodesPath() throws Exception {
        String url = node(200, "{\"status\":\"green\"}");
        AtomicLong timed = new AtomicLong();
        SearchTuning timedTuning = new SearchTuning(null, null, null, 0, nanos -> timed.incrementAndGet());

        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url + "/es/"),
                new Credentials.Basic("volumizer", "s3cret"), timedTuning)) {
            engine.checkHealth(SECOND);
        }
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url),
                new Credentials.ApiKey("aWQ6a2V5"), SearchTuning.DEFAULT)) {
            engine.checkHealth(SECOND);
        }
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            engine.checkHealth(SECOND);
        }

        // signed with the SDK's default credentials: here its system properties, on EKS a web identity
        System.setProperty("aws.accessKeyId", "AKIDEXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url),
                new Credentials.AwsSigV4("eu-west-1", "es"), SearchTuning.DEFAULT)) {
            engine.checkHealth(SECOND);
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }

        assertThat(requests).containsExactly(
                "GET /es/_cluster/health?timeout=1000ms&wait_for_status=yellow",
                "GET /_cluster/health?timeout=1000ms&wait_for_status=yellow",
                "GET /_cluster/health?timeout=1000ms&wait_for_status=yellow",
                "GET /_cluster/health?timeout=1000ms&wait_for_status=yellow");
        assertThat(authorizations).hasSize(4).startsWith("Basic dm9sdW1pemVyOnMzY3JldA==", "ApiKey aWQ6a2V5", "null");
        assertThat(authorizations.get(3)).startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                .contains("/eu-west-1/es/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date");
        assertThat(timed).as("the tuning's timer: what the cluster is, then its health").hasValue(2);
        assertThat(identifications).as("asked once per engine, under the node's path")
                .containsExactly("GET /es/", "GET /", "GET /", "GET /");
    }

    @Test
    void slicesShareAPointInTimeOnOpenSearchFromTwoFourOnly() {
        Map<String, Boolean> openSearch = Map.of("2.3.0", false, "2.4.0", true, "2.19.1", true, "3.6.0", true,
                "10.0.0", true, "serverless", false, "not asked: GET / 403", false);
        openSearch.forEach((version, has) -> assertThat(new Elasticsearch7Engine.Identity(SearchOptions.Engine.opensearch,
                version).hasPointInTime()).as("OpenSearch " + version).isEqualTo(has));
        assertThat(new Elasticsearch7Engine.Identity(SearchOptions.Engine.elasticsearch, "7.10.2").hasPointInTime())
                .as("Elasticsearch OSS").isFalse();
    }

    @Test
    void theClusterIsAskedWhatItIsBeforeTheFirstRequestAndRefusedWhenItIsNotTheEngineNamed() throws Exception {
        root = "{\"version\":{\"distribution\":\"opensearch\",\"number\":\"3.6.0\"}}";
        String url = node(200, "{\"status\":\"green\"}");
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThat(engine.name()).as("not asked yet").isEqualTo("search engine");
            engine.checkHealth(SECOND);
            engine.checkHealth(SECOND);
            assertThat(engine.name()).isEqualTo("opensearch");
            assertThat(engine.identity()).isEqualTo(new Elasticsearch7Engine.Identity(SearchOptions.Engine.opensearch, "3.6.0"));
        }
        assertThat(identifications).containsExactly("GET /");

        SearchOptions elasticsearch = options(url);
        elasticsearch.engine = SearchOptions.Engine.elasticsearch;
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(elasticsearch, new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThat(engine.name()).isEqualTo("elasticsearch");
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).as("a service that cannot serve, not a record's fault")
                    .isInstanceOfSatisfying(SearchException.class, e -> assertThat(e.kind() + ": " + e.reason())
                            .isEqualTo("UNAVAILABLE: --search-engine elasticsearch, but the search cluster at " + url
                                    + " runs opensearch 3.6.0"));
        }
        assertThat(requests).as("nothing sent to the wrong engine but the question").hasSize(2);

        root = "{\"version\":{\"number\":\"8.15.0\"}}";
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).isInstanceOf(SearchException.class)
                    .hasMessageContaining("runs Elasticsearch 8.15.0: the requests sent here are Elasticsearch 7's");
        }
        root = "{\"status\":\"ok\"}";
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).isInstanceOf(SearchException.class)
                    .hasMessageContaining("answered GET / without a version: it is not Elasticsearch or OpenSearch");
        }

        // a user that may not ask (403): an engine named is taken at its word; auto cannot tell
        root = "{\"error\":{\"reason\":\"no permissions for [cluster:monitor/main]\"},\"status\":403}";
        rootStatus = 403;
        SearchOptions opensearch = options(url);
        opensearch.engine = SearchOptions.Engine.opensearch;
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(opensearch, new Credentials.None(),
                SearchTuning.DEFAULT)) {
            engine.checkHealth(SECOND);
            assertThat(engine.name()).isEqualTo("opensearch");
        }
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).as("not a NOT_FOUND or INVALID of the caller's request")
                    .isInstanceOfSatisfying(SearchException.class, e -> {
                        assertThat(e.kind()).isEqualTo(SearchException.Kind.UNAVAILABLE);
                        assertThat(e.reason()).contains("answered GET / with FAILED (no permissions for [cluster:monitor/main])",
                                "--search-engine");
                    });
        }

        identifications.clear();
        System.setProperty("aws.accessKeyId", "AKIDEXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url),
                new Credentials.AwsSigV4("eu-west-1", "aoss"), SearchTuning.DEFAULT)) {
            engine.checkHealth(SECOND);
            assertThat(engine.name()).isEqualTo("opensearch");
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
        assertThat(identifications).as("OpenSearch Serverless has no GET /: not asked").isEmpty();
    }

    @Test
    void whatTheClusterAnswersBecomesAKindOfFailureWithItsReason() throws Exception {
        String url = node(400, "{\"error\":{\"root_cause\":[{\"type\":\"parsing_exception\",\"reason\":\"unknown query [mtch]\"}],"
                + "\"type\":\"x_content_parse_exception\",\"reason\":\"[1:10] outer\"},\"status\":400}");
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).isInstanceOfSatisfying(SearchException.class, e -> {
                assertThat(e.kind()).isEqualTo(SearchException.Kind.INVALID);
                assertThat(e.reason()).isEqualTo("unknown query [mtch]");
            });
        }
        stop();
        for (int status : List.of(404, 429, 503, 500)) {
            String answering = node(status, "{\"error\":{\"reason\":\"r" + status + "\"},\"status\":" + status + "}");
            try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(answering), new Credentials.None(),
                    SearchTuning.DEFAULT)) {
                assertThatThrownBy(() -> engine.checkHealth(SECOND)).isInstanceOfSatisfying(SearchException.class,
                        e -> assertThat(e.kind() + " " + e.reason()).isEqualTo(switch (status) {
                            case 404 -> "NOT_FOUND r404";
                            case 500 -> "FAILED r500";
                            default -> "UNAVAILABLE r" + status;
                        }));
            }
            stop();
        }
        int closed;
        try (ServerSocket free = new ServerSocket(0)) {
            closed = free.getLocalPort();
        }
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options("http://127.0.0.1:" + closed),
                new Credentials.None(), SearchTuning.DEFAULT)) {
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).isInstanceOfSatisfying(SearchException.class,
                    e -> assertThat(e.kind()).isEqualTo(SearchException.Kind.UNREACHABLE));
        }
    }

    @Test
    void httpsNodesAreTrustedByTheCaFileAndOnlyByIt() throws Exception {
        Path keyStore = folder.resolve("node.p12");
        Path ca = folder.resolve("ca.pem");
        keytool("-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-rfc", "-alias", "node", "-keystore", keyStore.toString(), "-storepass", "changeit",
                "-file", ca.toString());
        HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(serving(keyStore)));
        String url = node(https, 200, "{\"status\":\"green\"}");

        SearchOptions trusting = options(url);
        trusting.caFile = ca.toString();
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(trusting,
                new Credentials.Basic("volumizer", "s3cret"), SearchTuning.DEFAULT)) {
            engine.checkHealth(SECOND);
        }
        try (Elasticsearch7Engine engine = Elasticsearch7Engine.connect(options(url), new Credentials.None(),
                SearchTuning.DEFAULT)) {
            assertThatThrownBy(() -> engine.checkHealth(SECOND)).as("the JVM's CAs do not know the node")
                    .isInstanceOfSatisfying(SearchException.class,
                            e -> assertThat(e.kind()).isEqualTo(SearchException.Kind.UNREACHABLE));
        }
        assertThat(authorizations).containsExactly("Basic dm9sdW1pemVyOnMzY3JldA==");
    }

    private static SSLContext serving(Path keyStore) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            keys.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(output).isZero();
    }
}
