package io.volumizer.stores.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

class BlobStoreOptionsTest {

    @TempDir
    Path root;

    private static BlobStoreOptions parse(String... args) {
        BlobStoreOptions options = new BlobStoreOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void withoutALocationNothingIsConfigured() {
        assertThat(parse().configured()).isFalse();
        assertThat(new BlobStoreOptions(".volumizer/blobs").configured()).isTrue();
    }

    @Test
    void aFolderOpensAFileStore() {
        try (BlobStore store = parse("--blob-store", root.toString()).open()) {
            assertThat(store).isInstanceOf(FileBlobStore.class);
            assertThat(store.location()).isEqualTo(root.toAbsolutePath().toString());
        }
    }

    @Test
    void anS3LocationNamesBucketAndPrefix() {
        try (BlobStore store = parse("--blob-store", "s3://my-bank.blobs/prod/scans", "--s3-endpoint", "http://127.0.0.1:1").open()) {
            assertThat(store).isInstanceOf(S3BlobStore.class);
            assertThat(store.location()).isEqualTo("s3://my-bank.blobs/prod/scans/");
        }
        try (BlobStore store = parse("--blob-store", "s3://my-bank", "--s3-endpoint", "http://127.0.0.1:1").open()) {
            assertThat(store.location()).isEqualTo("s3://my-bank/");
        }
    }

    @Test
    void badValuesAreRejectedNamingTheOption() {
        assertThatThrownBy(() -> parse("--blob-store", "s3://").validate()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--blob-store s3://: '' is not a valid S3 bucket name");
        assertThatThrownBy(() -> parse("--blob-store", "s3://My_Bucket/x").validate())
                .hasMessageContaining("'My_Bucket' is not a valid S3 bucket name");
        assertThatThrownBy(() -> parse("--blob-store", "s3://b1b/x", "--s3-endpoint", "ftp://host").validate())
                .hasMessageContaining("--s3-endpoint must be an http:// or https:// URL, was ftp://host");
        assertThatThrownBy(() -> parse("--s3-region", " ").validate()).hasMessageContaining("--s3-region must not be empty");
    }
}
