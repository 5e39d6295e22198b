package io.volumizer.stores.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import software.amazon.awssdk.services.s3.S3Client;

/** Against the local S3-compatible server started by {@code bin/volumizer up}. */
class S3BlobStoreIT {

    static final String ENDPOINT = System.getProperty("volumizer.s3.endpoint");

    private final String bucket = "blobs-" + UUID.randomUUID().toString().substring(0, 8);
    private S3Client s3;
    private BlobStore store;

    @BeforeEach
    void createBucket() {
        BlobStoreOptions options = options("s3://" + bucket + "/repository/a", ENDPOINT);
        s3 = options.s3Client();
        s3.createBucket(b -> b.bucket(bucket));
        store = options.open();
    }

    @AfterEach
    void close() {
        store.close();
        s3.close();
    }

    static BlobStoreOptions options(String location, String endpoint) {
        BlobStoreOptions options = new BlobStoreOptions();
        new CommandLine(options).parseArgs("--blob-store", location, "--s3-endpoint", endpoint);
        return options;
    }

    @Test
    void storesByDigestUnderThePrefixIdempotentlyAndReadsBack() {
        byte[] bytes = "a statement".getBytes(StandardCharsets.UTF_8);
        String digest = store.put(bytes);
        String again = store.put(bytes);

        assertThat(digest).isEqualTo(again).isEqualTo(BlobStore.sha256(bytes));
        assertThat(store.get(digest)).contains(bytes);
        assertThat(store.location()).isEqualTo("s3://" + bucket + "/repository/a/");
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents()).singleElement()
                .satisfies(o -> assertThat(o.key()).isEqualTo("repository/a/" + BlobStore.relativePath(digest)));
    }

    @Test
    void unknownDigestIsEmptyAndAMalformedOneIsRejected() {
        assertThat(store.get("0".repeat(64))).isEmpty();
        assertThatThrownBy(() -> store.get("../x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a SHA-256 digest");
    }

    @Test
    void aMissingBucketIsAClearError() {
        try (BlobStore missing = options("s3://no-such-bucket-" + bucket, ENDPOINT).open()) {
            assertThatThrownBy(() -> missing.put(new byte[] {1})).isInstanceOf(BlobStoreException.class)
                    .hasMessageContaining("s3://no-such-bucket-" + bucket + "/");
        }
    }

    @Test
    void anUnreachableServerIsAClearError() {
        String closedPort = "http://127.0.0.1:" + (URI.create(ENDPOINT).getPort() + 1);
        try (BlobStore unreachable = options("s3://" + bucket, closedPort).open()) {
            assertThatThrownBy(() -> unreachable.put(new byte[] {1})).isInstanceOf(BlobStoreException.class)
                    .hasMessageContaining("cannot store blob in s3://" + bucket + "/");
        }
    }
}
