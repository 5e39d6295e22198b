package io.volumizer.stores.search.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.message.BasicHttpEntityEnclosingRequest;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.nio.entity.NStringEntity;
import org.apache.http.protocol.BasicHttpContext;
import org.apache.http.protocol.HttpContext;
import org.apache.http.protocol.HttpCoreContext;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Signed requests checked against AWS's Signature Version 4 test suite, since no AWS endpoint answers here. The SDK's
 * signer also signs an {@code x-amz-content-sha256} header, which the suite's requests lack (OpenSearch Serverless
 * requires it): so the test signs by the documented steps itself, checks that those steps give the suite's
 * signature of its get-vanilla request, then that the interceptor's requests carry the signatures those steps give.
 */
class AwsSigV4InterceptorTest {

    /** The test suite's credentials, clock, region and service. */
    private static final String ACCESS_KEY = "AKIDEXAMPLE";
    private static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    private static final String AMZ_DATE = "20150830T123600Z";
    private static final Clock SUITE_CLOCK = Clock.fixed(Instant.parse("2015-08-30T12:36:00Z"), ZoneOffset.UTC);
    private static final String REGION = "us-east-1";
    private static final String SERVICE = "service";

    @Test
    void theDocumentedStepsGiveTheSuitesSignatureOfGetVanilla() throws Exception {
        // get-vanilla.authz of the suite (docs.aws.amazon.com, "Signature Version 4 test suite")
        assertThat(documentedSignature("GET", "/", "", Map.of("host", "example.amazonaws.com", "x-amz-date", AMZ_DATE),
                sha256(""))).isEqualTo("5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    }

    @Test
    void signsGetVanillaByTheDocumentedSteps() throws Exception {
        BasicHttpRequest request = new BasicHttpRequest("GET", "/");
        request.setHeader("Host", "example.amazonaws.com");

        sign(request, new HttpHost("example.amazonaws.com", -1, "https"), AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));

        assertThat(header(request, "X-Amz-Date")).isEqualTo(AMZ_DATE);
        assertThat(header(request, "x-amz-content-sha256")).isEqualTo(sha256(""));
        assertThat(header(request, "Authorization")).isEqualTo("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/"
                + "us-east-1/service/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="
                + documentedSignature("GET", "/", "", Map.of("host", "example.amazonaws.com", "x-amz-content-sha256",
                        sha256(""), "x-amz-date", AMZ_DATE), sha256("")));
    }

    @Test
    void signsABulkRequestsBodyAndQueryAndSendsTheSessionsToken() throws Exception {
        String body = "{\"index\":{\"_id\":\"1\"}}\n{\"title\":\"Statement\"}\n";
        BasicHttpEntityEnclosingRequest bulk = new BasicHttpEntityEnclosingRequest("POST",
                "/_bulk?refresh=wait_for&filter_path=items.*.error");
        bulk.setHeader("Host", "search-bank.eu-west-1.es.amazonaws.com");
        bulk.setEntity(new NStringEntity(body, StandardCharsets.UTF_8));

        sign(bulk, new HttpHost("search-bank.eu-west-1.es.amazonaws.com", 443, "https"),
                AwsSessionCredentials.create(ACCESS_KEY, SECRET_KEY, "a-session-token"));

        assertThat(header(bulk, "X-Amz-Security-Token")).isEqualTo("a-session-token");
        assertThat(header(bulk, "Host")).as("sent as it was signed").isEqualTo("search-bank.eu-west-1.es.amazonaws.com");
        // the query sorted by name, '*' percent-encoded; the body's hash signed
        assertThat(header(bulk, "Authorization")).endsWith("SignedHeaders=host;x-amz-content-sha256;x-amz-date;"
                + "x-amz-security-token, Signature=" + documentedSignature("POST", "/_bulk",
                        "filter_path=items.%2A.error&refresh=wait_for", Map.of("host",
                                "search-bank.eu-west-1.es.amazonaws.com", "x-amz-content-sha256", sha256(body),
                                "x-amz-date", AMZ_DATE, "x-amz-security-token", "a-session-token"), sha256(body)));
    }

    private static void sign(HttpRequest request, HttpHost target, AwsBasicCredentials credentials) throws Exception {
        signWith(request, target, StaticCredentialsProvider.create(credentials));
    }

    private static void sign(HttpRequest request, HttpHost target, AwsSessionCredentials credentials) throws Exception {
        signWith(request, target, StaticCredentialsProvider.create(credentials));
    }

    private static void signWith(HttpRequest request, HttpHost target, StaticCredentialsProvider credentials)
            throws Exception {
        HttpContext context = new BasicHttpContext();
        context.setAttribute(HttpCoreContext.HTTP_TARGET_HOST, target);
        new AwsSigV4Interceptor(REGION, SERVICE, credentials, SUITE_CLOCK).process(request, context);
    }

    private static String header(HttpRequest request, String name) {
        return request.getFirstHeader(name).getValue();
    }

    /** Signature Version 4's steps as AWS documents them: canonical request, string to sign, derived key. */
    private static String documentedSignature(String method, String path, String canonicalQuery,
            Map<String, String> headers, String payloadHash) throws Exception {
        Map<String, String> sorted = new TreeMap<>(headers);
        StringBuilder canonicalHeaders = new StringBuilder();
        sorted.forEach((name, value) -> canonicalHeaders.append(name).append(':').append(value.strip()).append('\n'));
        String canonicalRequest = String.join("\n", method, path, canonicalQuery, canonicalHeaders.toString(),
                String.join(";", sorted.keySet()), payloadHash);
        String scope = AMZ_DATE.substring(0, 8) + "/" + REGION + "/" + SERVICE + "/aws4_request";
        String stringToSign = String.join("\n", "AWS4-HMAC-SHA256", AMZ_DATE, scope, sha256(canonicalRequest));
        byte[] key = hmac(("AWS4" + SECRET_KEY).getBytes(StandardCharsets.UTF_8), AMZ_DATE.substring(0, 8));
        for (String part : new String[] {REGION, SERVICE, "aws4_request"}) {
            key = hmac(key, part);
        }
        return HexFormat.of().formatHex(hmac(key, stringToSign));
    }

    private static byte[] hmac(byte[] key, String data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
