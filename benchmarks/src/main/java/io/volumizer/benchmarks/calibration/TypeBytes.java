package io.volumizer.benchmarks.calibration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.bson.BsonDocument;
import io.volumizer.stores.mongodb.IndexEntries;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.FileText;
import io.volumizer.generators.render.Renditions;
import io.volumizer.ops.plan.Calibration;
import io.volumizer.options.Options;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.MongoDocumentStore;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.stores.search.SearchEngine;
import io.volumizer.stores.search.SearchIndices;
import io.volumizer.stores.search.SearchWriter;
import com.mongodb.client.MongoCollection;

/** What a document of each type costs in bytes: in MongoDB, in a search index of each profile, and its file. */
final class TypeBytes {

    /** The indices a sample of each type is written to (one template, replaced by each run). */
    private static final IndexNames SAMPLE_INDICES = new IndexNames("calibration-bytes-");
    private static final int BATCH = 1000;

    private final IndexSettings indexSettings = Options.parseWithOverrides(new IndexSettings(), List.of());
    /** The most documents of a type written to the search engine. */
    private final int sample;

    TypeBytes(int sample) {
        this.sample = sample;
    }

    /** Each type's bytes in MongoDB (every document of the run), in a search index of each profile and its file's. */
    Map<String, Calibration.TypeCosts> costs(List<ImportedEvent> documents, MongoCollection<BsonDocument> collection,
            SearchEngine search) throws IOException {
        List<BsonDocument> definitions = collection.listIndexes(BsonDocument.class).into(new ArrayList<>());
        IndexEntries entries = IndexEntries.of(definitions);
        Map<String, List<ImportedEvent>> byType = new TreeMap<>();
        documents.forEach(event -> byType.computeIfAbsent(event.getDocument().getType(), t -> new ArrayList<>())
                .add(event));
        Map<String, Map<String, Double>> searchBytes = searchBytes(byType, search);
        Map<String, Calibration.TypeCosts> costs = new TreeMap<>();
        for (Map.Entry<String, List<ImportedEvent>> type : byType.entrySet()) {
            double data = 0;
            double index = 0;
            for (ImportedEvent event : type.getValue()) {
                var stored = MongoDocumentStore.toBson(event);
                data += stored.getByteBuffer().remaining();
                index += entries.bytes(stored);
            }
            List<ImportedEvent> sampled = sampled(type.getValue());
            double blob = sampled.stream().mapToLong(event -> fileBytes(event).length).average().orElse(0);
            int count = type.getValue().size();
            costs.put(type.getKey(), new Calibration.TypeCosts(data / count, index / count,
                    searchBytes.get(type.getKey()), blob));
        }
        return costs;
    }

    /** Per type, per profile: a sample's primary bytes per document, merged, less an empty index's bytes. */
    private Map<String, Map<String, Double>> searchBytes(Map<String, List<ImportedEvent>> byType, SearchEngine search)
            throws IOException {
        Map<String, IndexLayout> layouts = new LinkedHashMap<>();
        for (IndexProfile profile : IndexProfile.values()) {
            String codec = profile == IndexProfile.ARCHIVE ? "best_compression" : null;
            for (String type : byType.keySet()) {
                layouts.put(sampleRepository(profile, type), new IndexLayout(1, 0, null, codec, null, profile));
            }
        }
        SearchIndices indices = search.indices(SAMPLE_INDICES, layouts);
        indices.installTemplate();
        indices.deleteAll();
        SearchWriter writer = indices.writer(Backoff.DEFAULT);
        Map<String, Map<String, Double>> bytes = new TreeMap<>();
        try {
            for (Map.Entry<String, List<ImportedEvent>> type : byType.entrySet()) {
                List<ImportedEvent> sampled = sampled(type.getValue());
                for (IndexProfile profile : IndexProfile.values()) {
                    String repository = sampleRepository(profile, type.getKey());
                    List<ImportedEvent> written = sampled.stream().map(event -> asWritten(event, repository, profile))
                            .toList();
                    for (int from = 0; from < written.size(); from += BATCH) {
                        var result = writer.write(written.subList(from, Math.min(from + BATCH, written.size())));
                        if (!result.failed().isEmpty()) {
                            throw new IllegalStateException("the engine refused " + result.failed().size() + " "
                                    + type.getKey() + " documents, the first: " + result.failed().get(0).reason());
                        }
                    }
                    SearchIndices.StoredSize size = indices.mergedPrimarySize(SAMPLE_INDICES.of(repository));
                    String empty = indices.createForReindex(repository);
                    long emptyBytes = indices.mergedPrimarySize(empty).bytes();
                    indices.deleteGeneration(empty);
                    bytes.computeIfAbsent(type.getKey(), t -> new TreeMap<>()).put(profile.id(),
                            Math.max(0, size.bytes() - emptyBytes) / (double) size.documents());
                }
            }
        } finally {
            indices.deleteAll();
        }
        return bytes;
    }

    private static String sampleRepository(IndexProfile profile, String type) {
        return profile.id() + "-" + type.toLowerCase(Locale.ROOT);
    }

    /** Every k-th document of a type, at most {@code --sample} of them. */
    private List<ImportedEvent> sampled(List<ImportedEvent> ofType) {
        int step = Math.max(1, (int) Math.ceil(ofType.size() / (double) sample));
        List<ImportedEvent> sampled = new ArrayList<>();
        for (int i = 0; i < ofType.size(); i += step) {
            sampled.add(ofType.get(i));
        }
        return sampled;
    }

    /** The event as the index stage writes it into {@code repository}: with its file's text in a live index. */
    private ImportedEvent asWritten(ImportedEvent event, String repository, IndexProfile profile) {
        DocumentEvent document = event.getDocument();
        ImportedEvent.Builder written = ImportedEvent.newBuilder(event)
                .setDocument(DocumentEvent.newBuilder(document).setRepository(repository).build());
        if (profile == IndexProfile.LIVE && FileText.readable(document.getBlob())) {
            written.setFileText(FileText.extract(fileBytes(event), document.getBlob().getMimeType(),
                    indexSettings.fileTextMaxChars, indexSettings.fileTextMaxMemory));
        }
        return written.build();
    }

    private static byte[] fileBytes(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        return document.getBlob() == null ? new byte[0]
                : Renditions.render(BlobKey.parse(document.getBlob().getKey(), document.getRepository()));
    }
}
