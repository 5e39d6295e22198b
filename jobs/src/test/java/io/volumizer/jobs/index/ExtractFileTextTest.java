package io.volumizer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.BlobStoreOptions;
import io.volumizer.stores.blob.FileBlobStore;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;

class ExtractFileTextTest {

    private static final GeneratorSettings SETTINGS = GeneratorSettings.of(3, 4).withStatementsPerAccount(3);
    private static final io.volumizer.options.steps.IndexSettings DEFAULTS = io.volumizer.options.Options.defaults(
            new io.volumizer.options.steps.IndexSettings());
    private static final java.time.Duration TIMEOUT = DEFAULTS.fileTextTimeout;
    private static final int MAX_CHARS = DEFAULTS.fileTextMaxChars;
    private static final long MAX_MEMORY = DEFAULTS.fileTextMaxMemory;
    private static final Map<String, IndexLayout> LAYOUTS = Map.of(
            "live", new IndexLayout(null, null, null, null, null, IndexProfile.LIVE),
            "archive", new IndexLayout(null, null, null, null, null, IndexProfile.ARCHIVE));
    private static final RepositoryBlobStores NO_STORE = new RepositoryBlobStores(new BlobStoreOptions(), Map.of());

    @TempDir
    Path blobs;

    private static ImportedEvent imported(DocumentEvent document, String repository) {
        DocumentEvent copy = DocumentEvent.newBuilder(document).setRepository(repository).build();
        return ImportedEvent.newBuilder().setDocument(copy).setAncestorIds(List.of("root")).setPath("/bank/x")
                .setImportedAt(Instant.EPOCH).build();
    }

    private static DocumentEvent first(String type) {
        return new BankGenerator(SETTINGS).documents().stream().filter(d -> d.getType().equals(type)).findFirst().orElseThrow();
    }

    @Test
    void aLiveRepositorysStatementsAndLettersAreEmittedWithTheirFilesTextAndNothingElseIs() throws Exception {
        DocumentEvent statement = first("Statement");
        DocumentEvent letter = first("OpeningLetter");
        DocumentEvent uploaded = DocumentEvent.newBuilder(statement).setBlob(BlobRef.newBuilder(statement.getBlob())
                .setKey("sha256:00").build()).build();
        BlobKey key = BlobKey.parse(statement.getBlob().getKey(), SETTINGS.repository());
        BankModel model = new BankModel(SETTINGS);
        String counterparty = model.statement(model.account(model.customer(key.customer()), key.account()), key.statement())
                .operations().get(0).counterparty();

        try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(new ExtractFileText(LAYOUTS, NO_STORE, TIMEOUT, MAX_CHARS, MAX_MEMORY)))) {
            harness.open();
            for (ImportedEvent event : List.of(imported(statement, "live"), imported(letter, "live"),
                    imported(statement, "archive"), imported(statement, "bank"), imported(first("IdCard"), "live"),
                    imported(uploaded, "live"))) {
                harness.processElement(new StreamRecord<>(event));
            }
            List<ImportedEvent> out = harness.extractOutputValues();
            assertThat(out.get(0).getFileText()).contains(counterparty, statement.getProperties().get("accountNumber").toString());
            assertThat(out.get(1).getFileText()).contains(letter.getProperties().get("accountNumber").toString());
            assertThat(out).as("an archive's, a metadata repository's, an image's, an upload without a store: nothing")
                    .hasSize(2);
            ImportedEvent carried = imported(statement, "live");
            carried.setFileText("read back by a reindex");
            harness.processElement(new StreamRecord<>(carried));
            assertThat(harness.extractOutputValues()).as("a text carried: indexed with its document already").hasSize(2);
            assertThat(out.get(0).getDocument()).isEqualTo(imported(statement, "live").getDocument());
        }
        assertThat(ExtractFileText.needed(LAYOUTS)).isTrue();
        assertThat(ExtractFileText.needed(Map.of("bank", IndexLayout.TEMPLATE))).isFalse();
    }

    @Test
    void anUploadedFilesTextIsReadFromItsRepositorysBlobStore() throws Exception {
        DocumentEvent statement = first("Statement");
        byte[] pdf = new BankGenerator(SETTINGS).blob(statement.getBlob().getKey());
        String digest = new FileBlobStore(blobs).put(pdf);
        DocumentEvent uploaded = DocumentEvent.newBuilder(statement).setBlob(BlobRef.newBuilder(statement.getBlob())
                .setKey("upload/" + digest).setDigest(digest).build()).build();
        DocumentEvent missing = DocumentEvent.newBuilder(uploaded).setBlob(BlobRef.newBuilder(uploaded.getBlob())
                .setDigest(BlobStore.sha256(new byte[] {1})).build()).build();
        RepositoryBlobStores stores = new RepositoryBlobStores(new BlobStoreOptions(), Map.of("live", blobs.toString()));

        try (var harness = new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(new ExtractFileText(LAYOUTS, stores, TIMEOUT, MAX_CHARS, MAX_MEMORY)))) {
            harness.open();
            harness.processElement(new StreamRecord<>(imported(uploaded, "live")));
            harness.processElement(new StreamRecord<>(imported(missing, "live")));
            List<ImportedEvent> out = harness.extractOutputValues();
            assertThat(out).as("not in the store: its document stays indexed without its text").singleElement()
                    .satisfies(read -> assertThat(read.getFileText())
                            .contains(statement.getProperties().get("accountNumber").toString()));
        }
    }
}
