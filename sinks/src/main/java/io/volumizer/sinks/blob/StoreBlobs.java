package io.volumizer.sinks.blob;

import java.util.Optional;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.Renditions;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.RepositoryBlobStores;

/**
 * With a blob store configured (a folder or an S3 bucket), renders each generated blob, stores it by digest and
 * records its digest and length in the document; without one, blobs stay references by key and are regenerated on
 * demand. A store that cannot be written fails the task (after the SDK's retries), which restarts from its
 * checkpoint: the document is not at fault, so it is not dead-lettered.
 */
final class StoreBlobs extends RichMapFunction<ImportedEvent, ImportedEvent> {

    private static final long serialVersionUID = 1L;
    private final RepositoryBlobStores stores;
    private final String stage;
    private transient RepositoryBlobStores.Opened opened;
    private transient Counter stored;

    StoreBlobs(RepositoryBlobStores stores, String stage) {
        this.stores = stores;
        this.stage = stage;
    }

    @Override
    public void open(OpenContext openContext) {
        opened = stores.open();
        stored = StageMetrics.of(getRuntimeContext().getMetricGroup(), stage).counter(MetricNames.BLOBS_STORED);
    }

    @Override
    public void close() {
        if (opened != null) {
            opened.close();
        }
    }

    @Override
    public ImportedEvent map(ImportedEvent imported) {
        DocumentEvent document = imported.getDocument();
        BlobRef blob = document.getBlob();
        Optional<BlobStore> store = opened.of(document.getRepository());
        if (blob == null || blob.getDigest() != null || !BlobKey.isGenerated(blob.getKey()) || store.isEmpty()) {
            return imported;
        }
        byte[] bytes = Renditions.render(BlobKey.parse(blob.getKey(), document.getRepository()));
        String digest = store.get().put(bytes);
        stored.inc();
        DocumentEvent withDigest = DocumentEvent.newBuilder(document)
                .setBlob(BlobRef.newBuilder(blob).setDigest(digest).setLength((long) bytes.length).build()).build();
        return ImportedEvent.newBuilder(imported).setDocument(withDigest).build();
    }
}
