package io.volumizer.stores.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import picocli.CommandLine.Option;

/**
 * How the search engine is reached (a picocli mixin shared by the jobs, the API and the tools): which engine, its
 * nodes, the user, the CA certificates to trust. Secrets are never options, since a job's arguments are shown by
 * Flink's Web UI: the password and the API key are read from the environment ({@value #PASSWORD_ENV},
 * {@value #API_KEY_ENV}, set from a Kubernetes Secret) by each process that connects, when it connects.
 */
public final class SearchOptions implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String PASSWORD_ENV = "VOLUMIZER_SEARCH_PASSWORD";
    public static final String API_KEY_ENV = "VOLUMIZER_SEARCH_API_KEY";
    /** The AWS signing service of OpenSearch Serverless (--search-aws-service). */
    public static final String AWS_SERVERLESS = "aoss";

    /** What the search cluster runs: auto, what it answers {@code GET /} with. */
    public enum Engine { auto, elasticsearch, opensearch }

    // Initialized here rather than by picocli, so that options built in code (tests, other options) have them too.
    @Option(names = "--search-engine", description = "What the search cluster runs: ${COMPLETION-CANDIDATES}; auto "
            + "is what it answers GET / with, any other value also refuses a cluster that is not that engine "
            + "(Elasticsearch 7, OpenSearch 1 or later) (default: ${DEFAULT-VALUE}).")
    public Engine engine = Engine.auto;

    // --elasticsearch-url, its name before there was a choice of engine, still works.
    // The local services' engine (the endpoints file of bin/volumizer up) when that is known.
    @Option(names = {"--search-url", "--elasticsearch-url"}, defaultValue = "${sys:volumizer.search.url}",
            paramLabel = "URL[,URL...]", description = "The search "
            + "cluster's nodes, http(s)://host:port[/path], comma-separated; requests go round-robin to those that "
            + "answer (default: ${DEFAULT-VALUE}). Credentials never go in a URL.")
    public String urls = "http://127.0.0.1:9200";

    @Option(names = "--search-username", description = "User of basic authentication; the password comes from $"
            + PASSWORD_ENV + ". Without it, $" + API_KEY_ENV + " (an API key, base64 of id:key) if set.")
    public String username;

    @Option(names = "--search-aws-region", paramLabel = "REGION", description = "Signs every request with AWS "
            + "Signature Version 4 for Amazon OpenSearch Service in this region, with the AWS SDK's default credentials "
            + "(the environment, a profile, a web identity such as EKS's IAM roles for service accounts, an instance "
            + "role); instead of a user or an API key.")
    public String awsRegion;

    @Option(names = "--search-aws-service", description = "The service name requests are signed for with "
            + "--search-aws-region: es (a managed domain) or aoss (serverless) (default: ${DEFAULT-VALUE}).")
    public String awsService = "es";

    @Option(names = "--search-ca-file", paramLabel = "PEM", description = "CA certificates (PEM) that https:// nodes' "
            + "certificates are trusted by, instead of the JVM's; a file every process that connects has.")
    public String caFile;

    /** The nodes, as given. */
    public List<URI> nodes() {
        List<URI> nodes = new ArrayList<>();
        for (String url : urls.split(",")) {
            if (!url.isBlank()) {
                try {
                    nodes.add(new URI(url.strip()));
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException("--search-url: '" + url.strip() + "' is not a URL", e);
                }
            }
        }
        return nodes;
    }

    /** The path every request's starts with, without a trailing slash: empty, or /es behind a proxy, say. */
    public String pathPrefix() {
        String path = nodes().get(0).getPath();
        return path == null ? "" : path.replaceAll("/+$", "");
    }

    /**
     * Refuses what no engine could be reached with. The CA file is read when an engine opens, not here: options are
     * also checked on a client that submits the jobs and never connects.
     *
     * @throws IllegalArgumentException naming the option at fault
     */
    public void validate() {
        List<URI> nodes = nodes();
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("--search-url must name at least one node");
        }
        for (URI node : nodes) {
            if (!("http".equals(node.getScheme()) || "https".equals(node.getScheme())) || node.getHost() == null) {
                throw new IllegalArgumentException("--search-url must be http(s)://host[:port][/path], was " + node);
            }
            if (node.getUserInfo() != null) {
                throw new IllegalArgumentException("--search-url must not hold credentials: set --search-username "
                        + "and $" + PASSWORD_ENV + ", or $" + API_KEY_ENV);
            }
            if (node.getQuery() != null || node.getFragment() != null) {
                throw new IllegalArgumentException("--search-url must have no query or fragment, was " + node);
            }
        }
        String prefix = pathPrefix();
        for (URI node : nodes) {
            if (!prefix.equals(node.getPath() == null ? "" : node.getPath().replaceAll("/+$", ""))) {
                throw new IllegalArgumentException("--search-url: every node must have the same path, as one client "
                        + "sends to all of them; were " + urls);
            }
        }
        if (awsRegion != null && (awsRegion.isBlank() || awsService == null || awsService.isBlank())) {
            throw new IllegalArgumentException("--search-aws-region and --search-aws-service must name a region and a "
                    + "service (es or aoss)");
        }
        if (awsRegion != null && AWS_SERVERLESS.equals(awsService) && engine == Engine.elasticsearch) {
            throw new IllegalArgumentException("--search-aws-service aoss is OpenSearch Serverless: not --search-engine "
                    + "elasticsearch");
        }
        if (caFile != null && caFile.isBlank()) {
            throw new IllegalArgumentException("--search-ca-file must name a file");
        }
    }

    /** How a process authenticates to the engine: as no one, as a user, with an API key, or by signed requests. */
    public sealed interface Credentials {

        /** The value of the HTTP Authorization header these credentials send, or null for none or one per request. */
        String authorization();

        /** Each request signed (AWS Signature Version 4) with the AWS SDK's default credentials, resolved per request. */
        record AwsSigV4(String region, String service) implements Credentials {
            @Override
            public String authorization() {
                return null;
            }
        }

        record None() implements Credentials {
            @Override
            public String authorization() {
                return null;
            }
        }

        record Basic(String username, String password) implements Credentials {
            @Override
            public String authorization() {
                return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password)
                        .getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public String toString() {
                return "Basic[" + username + "]"; // never the password, in a log or an exception
            }
        }

        /** @param encoded base64 of id:key, as the engine's security API returns it */
        record ApiKey(String encoded) implements Credentials {
            @Override
            public String authorization() {
                return "ApiKey " + encoded;
            }

            @Override
            public String toString() {
                return "ApiKey[***]";
            }
        }
    }

    /**
     * The credentials of the process that connects, from its environment: requests signed for --search-aws-region,
     * else --search-username with the password in {@value #PASSWORD_ENV}, else the API key in {@value #API_KEY_ENV},
     * else none.
     *
     * @throws IllegalArgumentException when they contradict each other or one is missing its other half
     */
    public Credentials credentials() {
        return credentials(System::getenv);
    }

    Credentials credentials(UnaryOperator<String> environment) {
        String password = nonBlank(environment.apply(PASSWORD_ENV));
        String apiKey = nonBlank(environment.apply(API_KEY_ENV));
        if (awsRegion != null) {
            if (username != null || password != null || apiKey != null) {
                throw new IllegalArgumentException("search credentials: either --search-aws-region (signed requests), "
                        + "or --search-username and $" + PASSWORD_ENV + ", or $" + API_KEY_ENV + ", not two of them");
            }
            return new Credentials.AwsSigV4(awsRegion, awsService);
        }
        if (username != null && apiKey != null || password != null && apiKey != null) {
            throw new IllegalArgumentException("search credentials: either --search-username and $" + PASSWORD_ENV
                    + ", or $" + API_KEY_ENV + ", not both");
        }
        if (username != null) {
            if (password == null) {
                throw new IllegalArgumentException("--search-username " + username + " needs $" + PASSWORD_ENV);
            }
            return new Credentials.Basic(username, password);
        }
        if (password != null) {
            throw new IllegalArgumentException("$" + PASSWORD_ENV + " is set without --search-username");
        }
        return apiKey != null ? new Credentials.ApiKey(apiKey) : new Credentials.None();
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /**
     * An SSL context that trusts exactly the CA certificates of --search-ca-file, or null without one (the JVM's
     * trust store). Host names are verified all the same.
     *
     * @throws IllegalArgumentException when the file cannot be read or holds no certificate
     */
    public SSLContext trust() {
        if (caFile == null) {
            return null;
        }
        try (InputStream in = Files.newInputStream(Path.of(caFile))) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int count = 0;
            for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("ca-" + count++, ca);
            }
            if (count == 0) {
                throw new IllegalArgumentException("--search-ca-file " + caFile + " holds no certificate");
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--search-ca-file " + caFile + ": " + e.getMessage(), e);
        }
    }
}
