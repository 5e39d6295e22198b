package io.volumizer.sinks.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.flink.streaming.api.operators.StreamMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.BlobStoreOptions;
import io.volumizer.stores.blob.FileBlobStore;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;

class StoreBlobsTest {

    private static ImportedEvent imported(DocumentEvent document) {
        return ImportedEvent.newBuilder().setDocument(document).setAncestorIds(List.of("root"))
                .setPath("/bank/x").setImportedAt(Instant.EPOCH).build();
    }

    @TempDir
    Path root;

    private final BankGenerator generator = new BankGenerator(GeneratorSettings.of(3, 10).withStatementsPerAccount(4));

    private DocumentEvent firstStatement() {
        for (long i = 0; ; i++) {
            DocumentEvent document = generator.documentAt(i);
            if (document != null && document.getType().equals("Statement")) {
                return document;
            }
        }
    }

    @Test
    void rendersStoresByDigestAndRecordsDigestAndLength() throws Exception {
        DocumentEvent statement = firstStatement();
        DocumentEvent folder = generator.documentAt(0);

        try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamMap<>(new StoreBlobs(
                new RepositoryBlobStores(new BlobStoreOptions(root.toString()), Map.of()), MetricNames.IMPORT)))) {
            harness.open();
            harness.processElement(new StreamRecord<>(imported(statement)));
            harness.processElement(new StreamRecord<>(imported(folder)));

            DocumentEvent stored = harness.extractOutputValues().get(0).getDocument();
            byte[] rendered = generator.blob(statement.getBlob().getKey());
            assertThat(stored.getBlob().getDigest()).isEqualTo(BlobStore.sha256(rendered));
            assertThat(stored.getBlob().getLength()).isEqualTo(rendered.length);
            assertThat(new FileBlobStore(root).get(stored.getBlob().getDigest())).contains(rendered);
            assertThat(statement.getBlob().getDigest()).as("the input event is not modified").isNull();
            assertThat(harness.extractOutputValues().get(0).getPath()).as("the ancestry is kept").isEqualTo("/bank/x");
            assertThat(harness.extractOutputValues().get(1).getDocument()).isEqualTo(folder);
        }
    }

    @Test
    void aRepositoryWithAStoreOfItsOwnStoresThereAndOneWithoutAStoreKeepsItsKey(@TempDir Path own) throws Exception {
        DocumentEvent statement = firstStatement();
        DocumentEvent elsewhere = DocumentEvent.newBuilder(statement).setRepository("elsewhere").build();
        RepositoryBlobStores stores = new RepositoryBlobStores(new BlobStoreOptions(),
                Map.of(statement.getRepository(), own.toString()));

        var storeBlobs = new StoreBlobs(stores, MetricNames.IMPORT);
        try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamMap<>(storeBlobs))) {
            harness.open();
            harness.processElement(new StreamRecord<>(imported(statement)));
            harness.processElement(new StreamRecord<>(imported(elsewhere)));

            String digest = harness.extractOutputValues().get(0).getDocument().getBlob().getDigest();
            assertThat(new FileBlobStore(own).get(digest)).contains(generator.blob(statement.getBlob().getKey()));
            assertThat(harness.extractOutputValues().get(1).getDocument()).as("no store: rendered again when read")
                    .isEqualTo(elsewhere);
        }
    }
}
