package io.volumizer.jobs.index;

import java.util.Map;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.FileText;
import io.volumizer.generators.render.Renditions;
import io.volumizer.jobs.internal.StageMetrics;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.sinks.elasticsearch.IndexLayout;
import io.volumizer.sinks.elasticsearch.IndexProfile;

/**
 * Reads the text inside each file of a live repository (statements' PDF, letters' DOCX) from the file's bytes, for
 * the index: here, after the MongoDB write, so that parsing files never holds the import up. A generated file's
 * bytes are rendered again from its key (the same bytes the import stored). A file that cannot be read is not the
 * document's refusal: the document is indexed without its text, and the failure logged and counted
 * ({@code fileTextFailed}).
 */
final class ExtractFileText extends RichMapFunction<ImportedEvent, ImportedEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ExtractFileText.class);

    private final Map<String, IndexLayout> layouts;
    private transient Counter extracted;
    private transient Counter failed;
    private transient Counter notGenerated;

    ExtractFileText(Map<String, IndexLayout> layouts) {
        this.layouts = Map.copyOf(layouts);
    }

    /** Whether any repository of these layouts is live: without one, the stage has no such operator. */
    static boolean needed(Map<String, IndexLayout> layouts) {
        return layouts.values().stream().anyMatch(layout -> layout.profile() == IndexProfile.LIVE);
    }

    @Override
    public void open(Configuration parameters) {
        var metrics = StageMetrics.of(getRuntimeContext().getMetricGroup(), IndexStage.STAGE);
        extracted = metrics.counter("fileTextExtracted");
        failed = metrics.counter("fileTextFailed");
        notGenerated = metrics.counter("fileTextNotGenerated");
    }

    @Override
    public ImportedEvent map(ImportedEvent event) {
        BlobRef blob = event.getDocument().getBlob();
        String repository = event.getDocument().getRepository();
        if (blob == null || event.getDocument().getOperation() == Operation.DELETE || !FileText.readable(blob.getMimeType())
                || layouts.getOrDefault(repository, IndexLayout.TEMPLATE).profile() != IndexProfile.LIVE) {
            return event;
        }
        if (!BlobKey.isGenerated(blob.getKey())) {
            notGenerated.inc(); // an uploaded file: its bytes are in the API's blob store, which this stage does not read
            return event;
        }
        try {
            String text = FileText.extract(Renditions.render(BlobKey.parse(blob.getKey(), repository)), blob.getMimeType());
            extracted.inc();
            return ImportedEvent.newBuilder(event).setFileText(text).build();
        } catch (IllegalArgumentException e) {
            failed.inc();
            LOG.warn("document {} of {}: indexed without its file's text: {}", event.getDocument().getId(), repository,
                    e.getMessage());
            return event;
        }
    }
}
