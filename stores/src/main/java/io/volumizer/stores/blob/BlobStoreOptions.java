package io.volumizer.stores.blob;

import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;

import picocli.CommandLine.Option;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Where blobs are stored, as options shared by the import jobs and the API (a picocli mixin): a folder, or an S3
 * bucket on AWS or on an S3-compatible server. Credentials come from the AWS SDK's default chain (environment,
 * profile, the IAM role of a Kubernetes service account), never from options that a job's arguments would show.
 */
public final class BlobStoreOptions implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final String S3_SCHEME = "s3://";

    @Option(names = "--blob-store", description = "Where blobs are stored by SHA-256: a folder (shared by every "
            + "TaskManager and the API) or s3://bucket[/prefix].")
    public String location;

    @Option(names = "--s3-endpoint", description = "An S3-compatible server for s3:// blob stores, e.g. "
            + "http://127.0.0.1:9000 (path-style requests); AWS when absent.")
    public URI s3Endpoint;

    // Initialized here rather than by picocli, so that options built in code (tests, other options) have it too.
    @Option(names = "--s3-region", description = "Region of the bucket (default: ${DEFAULT-VALUE}).")
    public String s3Region = "us-east-1";

    public BlobStoreOptions() {
    }

    /** Options whose {@code --blob-store} defaults to a folder. */
    public BlobStoreOptions(String defaultLocation) {
        this.location = defaultLocation;
    }

    /** These options (endpoint, region) with another location: a repository's own store. */
    public BlobStoreOptions at(String otherLocation) {
        BlobStoreOptions other = new BlobStoreOptions(otherLocation);
        other.s3Endpoint = s3Endpoint;
        other.s3Region = s3Region;
        return other;
    }

    public boolean configured() {
        return location != null && !location.isBlank();
    }

    public boolean isS3() {
        return configured() && location.startsWith(S3_SCHEME);
    }

    /** @throws IllegalArgumentException naming the option at fault */
    public void validate() {
        if (isS3()) {
            s3Location();
        }
        if (s3Endpoint != null && !("http".equals(s3Endpoint.getScheme()) || "https".equals(s3Endpoint.getScheme()))) {
            throw new IllegalArgumentException("--s3-endpoint must be an http:// or https:// URL, was " + s3Endpoint);
        }
        if (s3Region == null || s3Region.isBlank()) {
            throw new IllegalArgumentException("--s3-region must not be empty");
        }
    }

    /** Opens the configured store; the caller closes it. */
    public BlobStore open() {
        validate();
        if (!isS3()) {
            return new FileBlobStore(Path.of(location));
        }
        S3Location s3 = s3Location();
        return new S3BlobStore(s3Client(), s3.bucket(), s3.prefix());
    }

    /** A client of the configured S3 endpoint (or of AWS) and region; the caller closes it. */
    public S3Client s3Client() {
        var builder = S3Client.builder().httpClient(UrlConnectionHttpClient.create()).region(Region.of(s3Region));
        if (s3Endpoint != null) {
            // S3-compatible servers address buckets by path; AWS itself resolves virtual-hosted names.
            builder.endpointOverride(s3Endpoint).forcePathStyle(true);
        }
        return builder.build();
    }

    /** Bucket and key prefix of an {@code s3://} location; the prefix is empty or ends with "/". */
    private record S3Location(String bucket, String prefix) {
    }

    private S3Location s3Location() {
        String rest = location.substring(S3_SCHEME.length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new IllegalArgumentException("--blob-store " + location + ": '" + bucket + "' is not a valid S3 "
                    + "bucket name (3-63 lower-case letters, digits, dots and hyphens)");
        }
        return new S3Location(bucket, prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/");
    }
}
