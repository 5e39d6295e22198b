package io.volumizer.stores.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBlobStoreTest {

    @TempDir
    Path root;

    @Test
    void storesOnceByDigestAndReadsBack() throws Exception {
        FileBlobStore store = new FileBlobStore(root);
        byte[] bytes = "%PDF-1.4 statement".getBytes(StandardCharsets.UTF_8);

        String digest = store.put(bytes);
        String again = store.put(bytes);

        assertThat(digest).hasSize(64).isEqualTo(again).isEqualTo(BlobStore.sha256(bytes));
        assertThat(store.get(digest)).contains(bytes);
        try (var files = Files.walk(root)) {
            assertThat(files.filter(Files::isRegularFile).toList()).singleElement()
                    .satisfies(p -> assertThat(p.toString()).endsWith(digest.substring(0, 2) + "/" + digest.substring(2, 4) + "/" + digest));
        }
    }

    @Test
    void unknownDigestIsEmptyAndAMalformedOneIsRejected() {
        FileBlobStore store = new FileBlobStore(root);
        assertThat(store.get("0".repeat(64))).isEmpty();
        assertThatThrownBy(() -> store.get("../../etc/passwd")).hasMessageContaining("not a SHA-256 digest");
    }
}
