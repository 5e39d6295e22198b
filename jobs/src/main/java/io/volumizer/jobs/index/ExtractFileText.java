package io.volumizer.jobs.index;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.FileText;
import io.volumizer.generators.render.Renditions;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.IndexProfile;
import io.volumizer.options.conventions.MetricNames;

/**
 * Reads the text inside each file of a live repository (PDF, DOCX: statements, letters, uploaded files) from the
 * file's bytes, and emits the document's form with its text, for the index to write after its metadata: apart from
 * the import and the metadata's index writes, so that parsing files holds neither up. Events without such a file
 * emit nothing, and so do those that carry their text already (a reindex reads it back from MongoDB, where the
 * text's writer stored it: counted {@code fileTextCarried}). A generated file's bytes are rendered again from its key (the same bytes the import stored); an
 * uploaded file's are read from its repository's blob store, by digest (without a store, it is counted in
 * {@code fileTextNotStored}). A file that cannot be read is not the document's refusal: the document stays indexed
 * without its text, and the failure logged and counted ({@code fileTextFailed}); so is one not read within its time
 * budget ({@code fileTextTimedOut},
 * see {@link TimedExtraction}): no crafted file can hold the stage up or take its TaskManager down. At most
 * {@code maxChars} characters of a file's text are read and indexed: a PDF bomb costs no more than its first ones;
 * and reading one may allocate at most {@code maxMemory} bytes: a file that inflates beyond is given up, counted in
 * {@code fileTextFailed}. A blob store that cannot be reached fails the task, which restarts from its checkpoint:
 * the document is not at fault.
 */
final class ExtractFileText extends RichFlatMapFunction<ImportedEvent, ImportedEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ExtractFileText.class);

    private final Map<String, IndexLayout> layouts;
    private final RepositoryBlobStores blobStores;
    private final Duration timeout;
    private final int maxChars;
    private final long maxMemory;
    private transient RepositoryBlobStores.Opened stores;
    private transient TimedExtraction extraction;
    private transient Counter extracted;
    private transient Counter carried;
    private transient Counter failed;
    private transient Counter notStored;
    private transient Counter timedOut;

    /**
     * @param timeout  the longest one file's text is read for
     * @param maxChars the most characters of one file's text indexed (and read, of a PDF)
     * @param maxMemory the most bytes reading one file's text may allocate
     */
    ExtractFileText(Map<String, IndexLayout> layouts, RepositoryBlobStores blobStores, Duration timeout, int maxChars,
            long maxMemory) {
        this.layouts = Map.copyOf(layouts);
        this.blobStores = blobStores;
        this.timeout = timeout;
        this.maxChars = maxChars;
        this.maxMemory = maxMemory;
    }

    /** Whether any repository of these layouts is live: without one, the stage has no such operator. */
    static boolean needed(Map<String, IndexLayout> layouts) {
        return layouts.values().stream().anyMatch(layout -> layout.profile() == IndexProfile.LIVE);
    }

    @Override
    public void open(OpenContext openContext) {
        var metrics = StageMetrics.of(getRuntimeContext().getMetricGroup(), MetricNames.FILE_TEXT);
        extracted = metrics.counter(MetricNames.FILE_TEXT_EXTRACTED);
        carried = metrics.counter(MetricNames.FILE_TEXT_CARRIED);
        failed = metrics.counter(MetricNames.FILE_TEXT_FAILED);
        notStored = metrics.counter(MetricNames.FILE_TEXT_NOT_STORED);
        timedOut = metrics.counter(MetricNames.FILE_TEXT_TIMED_OUT);
        stores = blobStores.open();
        extraction = new TimedExtraction((bytes, mimeType) -> FileText.extract(bytes, mimeType, maxChars, maxMemory),
                timeout);
    }

    @Override
    public void close() {
        if (stores != null) {
            stores.close();
        }
        if (extraction != null) {
            extraction.close();
        }
    }

    @Override
    public void flatMap(ImportedEvent event, Collector<ImportedEvent> out) throws InterruptedException {
        BlobRef blob = event.getDocument().getBlob();
        String repository = event.getDocument().getRepository();
        if (!FileText.readable(blob) || event.getDocument().getOperation() == Operation.DELETE
                || layouts.getOrDefault(repository, IndexLayout.TEMPLATE).profile() != IndexProfile.LIVE) {
            return;
        }
        if (event.getFileText() != null) {
            carried.inc(); // read back with its document (a reindex): indexed with it already
            return;
        }
        byte[] bytes;
        if (BlobKey.isGenerated(blob.getKey())) {
            bytes = Renditions.render(BlobKey.parse(blob.getKey(), repository));
        } else {
            Optional<BlobStore> store = stores.of(repository);
            if (store.isEmpty() || blob.getDigest() == null) {
                notStored.inc();
                return;
            }
            Optional<byte[]> stored = store.get().get(blob.getDigest());
            if (stored.isEmpty()) {
                failed.inc();
                LOG.warn("document {} of {}: indexed without its file's text: blob {} is not in {}",
                        event.getDocument().getId(), repository, blob.getDigest(), store.get().location());
                return;
            }
            bytes = stored.get();
        }
        try {
            String text = extraction.extract(bytes, blob.getMimeType());
            extracted.inc();
            out.collect(ImportedEvent.newBuilder(event).setFileText(text).build());
        } catch (IllegalArgumentException e) {
            failed.inc();
            LOG.warn("document {} of {}: indexed without its file's text: {}", event.getDocument().getId(), repository,
                    e.getMessage());
        } catch (TimeoutException e) {
            timedOut.inc();
            LOG.warn("document {} of {}: indexed without its file's text: not read within {}", event.getDocument().getId(),
                    repository, timeout);
        }
    }
}
