package io.volumizer.stores.search.elasticsearch;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpHeaders;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.HttpRequestInterceptor;
import org.apache.http.NameValuePair;
import org.apache.http.client.utils.URLEncodedUtils;
import org.apache.http.protocol.HttpContext;
import org.apache.http.protocol.HttpCoreContext;
import org.apache.http.util.EntityUtils;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Signs each request with AWS Signature Version 4, as Amazon OpenSearch Service requires, by the AWS SDK's signer:
 * the credentials are resolved for every request, since those of a web identity or an instance role rotate. It runs
 * after the HTTP client's own interceptors, so the Host header it signs is the one sent; the body is signed too.
 */
final class AwsSigV4Interceptor implements HttpRequestInterceptor {

    private final String region;
    private final String service;
    private final AwsCredentialsProvider credentials;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    AwsSigV4Interceptor(String region, String service, AwsCredentialsProvider credentials, Clock clock) {
        this.region = region;
        this.service = service;
        this.credentials = credentials;
        this.clock = clock;
    }

    @Override
    public void process(HttpRequest request, HttpContext context) throws IOException {
        HttpHost target = HttpCoreContext.adapt(context).getTargetHost();
        URI uri = URI.create(request.getRequestLine().getUri());
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder()
                .method(SdkHttpMethod.fromValue(request.getRequestLine().getMethod()))
                .protocol(target.getSchemeName())
                .host(target.getHostName())
                .encodedPath(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath());
        if (target.getPort() > 0) {
            unsigned.port(target.getPort());
        }
        if (request.getFirstHeader(HttpHeaders.HOST) != null) {
            unsigned.putHeader(HttpHeaders.HOST, request.getFirstHeader(HttpHeaders.HOST).getValue());
        }
        for (NameValuePair parameter : URLEncodedUtils.parse(uri, StandardCharsets.UTF_8)) {
            unsigned.appendRawQueryParameter(parameter.getName(), parameter.getValue());
        }
        byte[] body = request instanceof HttpEntityEnclosingRequest enclosing && enclosing.getEntity() != null
                ? EntityUtils.toByteArray(enclosing.getEntity()) : null;
        SignedRequest signed = signer.sign(sign -> sign.identity(credentials.resolveCredentials())
                .request(unsigned.build())
                .payload(body == null ? null : ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(HttpSigner.SIGNING_CLOCK, clock));
        for (Map.Entry<String, List<String>> header : signed.request().headers().entrySet()) {
            if (!HttpHeaders.HOST.equalsIgnoreCase(header.getKey())) {
                request.setHeader(header.getKey(), header.getValue().get(0));
            }
        }
    }
}
