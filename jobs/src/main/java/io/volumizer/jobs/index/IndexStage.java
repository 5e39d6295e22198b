package io.volumizer.jobs.index;

import java.io.IOException;
import java.util.Map;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.jobs.internal.bulk.BulkWriteOperator;
import io.volumizer.jobs.internal.bulk.BulkWriter;
import io.volumizer.jobs.internal.bulk.ImportedEventSizes;
import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.jobs.internal.stores.SearchBulkWriter;
import io.volumizer.jobs.internal.stores.SearchConnection;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.options.conventions.MetricNames;

/**
 * The index stage as a fragment of a job graph, with its operators' uids: the text of live repositories' files read
 * (when the topology has one), then bulk writes into Elasticsearch with external versions, backoff on overload and
 * dead letters. The index job, the import-and-index job and the reindex all apply it, so a savepoint of one
 * restores into the same operators in the other.
 */
public final class IndexStage {
    private static final TypeInformation<ImportedEvent> IMPORTED = TypeInformation.of(ImportedEvent.class);

    private final BulkWriter<ImportedEvent> index;
    private final Map<String, IndexLayout> layouts;
    private final RepositoryBlobStores blobStores;
    private final IndexSettings settings;

    /**
     * @param layouts    each repository's index layout: its profile says whether its files' text is read
     * @param blobStores where uploaded files' bytes are, for their text
     */
    public IndexStage(BulkWriter<ImportedEvent> index, Map<String, IndexLayout> layouts, RepositoryBlobStores blobStores,
            IndexSettings settings) {
        this.index = index;
        this.layouts = Map.copyOf(layouts);
        this.blobStores = blobStores;
        this.settings = settings;
    }

    /** The stage on the pipeline's real search engine, whose repository template it installs first. */
    public static IndexStage onSearchEngine(PipelineOptions pipeline, IndexSettings settings) throws IOException {
        SearchConnection search = SearchConnection.of(pipeline);
        search.installTemplate(); // before any index is created: from the job client, once
        SearchBulkWriter writer = new SearchBulkWriter(search, Backoff.DEFAULT,
                Connectors.codec(pipeline, pipeline.importedTopic(), ImportedEvent.class));
        return new IndexStage(writer, pipeline.indexLayouts(), pipeline.repositoryBlobStores(), settings);
    }

    /** Adds the stage after {@code imported}; returns the indexed documents and the dead letters. */
    public StageOutput<ImportedEvent> apply(DataStream<ImportedEvent> imported) {
        DataStream<ImportedEvent> toIndex = !ExtractFileText.needed(layouts) ? imported
                : imported.map(new ExtractFileText(layouts, blobStores, settings.fileTextTimeout,
                        settings.fileTextMaxChars, settings.fileTextMaxMemory)).uid("index.file-text").name("Read files' text");
        SingleOutputStreamOperator<ImportedEvent> indexed = toIndex
                .transform("Index in Elasticsearch", IMPORTED, new BulkWriteOperator<>(MetricNames.INDEX, index,
                        settings.batchSize, settings.batchBytes, settings.flushInterval, ImportedEventSizes::estimate))
                .uid("index.elasticsearch-writer");
        return new StageOutput<>(indexed, indexed.getSideOutput(DeadLetters.TAG));
    }
}
