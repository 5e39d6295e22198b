package io.volumizer.jobs.index;

import java.io.IOException;
import java.util.Map;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import io.volumizer.jobs.internal.Connectors;
import io.volumizer.jobs.internal.StageOutput;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.IndexSettings;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.sinks.bulk.BulkSink;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.sinks.search.SearchConnection;
import io.volumizer.sinks.search.SearchSinkBuilder;

/**
 * The index stage as a fragment of a job graph, with its operators' uids: bulk writes of each document's metadata
 * into Elasticsearch with external versions, backoff on overload and dead letters; and, when the topology has a live
 * repository, the reading of those repositories' files' text, which writes each document again with it, at a version
 * above its metadata's ({@code EngineVersions}): the metadata is searchable at once, the text follows. The text is
 * read in a branch of the job ({@code --file-text branch}: its own operator chain, parallelism and slot sharing group,
 * {@code --file-text-parallelism}, {@code --file-text-slot-sharing-group}, but fed by the same source, which a
 * slower extraction holds back), or by an index job of its own ({@code --file-text only}, beside one of
 * {@code none}), which reads the imported topic in a group of its own and so holds nothing back. Its metrics are
 * stage {@value MetricNames#FILE_TEXT}'s; the text's writes refused by the engine are dead letters of that stage: the
 * document itself is indexed. The index job, the import-and-index job and the reindex all apply it, so a savepoint
 * of one restores into the same operators in the other.
 */
public final class IndexStage {
    private final BulkSink<ImportedEvent> index;
    private final BulkSink<ImportedEvent> fileText;
    private final Map<String, IndexLayout> layouts;
    private final RepositoryBlobStores blobStores;
    private final IndexSettings settings;

    /**
     * @param index      writes each document's metadata
     * @param fileText   writes live repositories' documents with their files' text
     * @param layouts    each repository's index layout: its profile says whether its files' text is read
     * @param blobStores where uploaded files' bytes are, for their text
     */
    public IndexStage(BulkSink<ImportedEvent> index, BulkSink<ImportedEvent> fileText, Map<String, IndexLayout> layouts,
            RepositoryBlobStores blobStores, IndexSettings settings) {
        this.index = index;
        this.fileText = fileText;
        this.layouts = Map.copyOf(layouts);
        this.blobStores = blobStores;
        this.settings = settings;
    }

    /** The stage on the pipeline's real search engine, whose repository template it installs first. */
    public static IndexStage onSearchEngine(PipelineOptions pipeline, IndexSettings settings) throws IOException {
        SearchConnection search = SearchConnection.of(pipeline);
        search.installTemplate(); // before any index is created: from the job client, once
        return writing(new SearchSinkBuilder().setConnection(search), pipeline, settings);
    }

    /** The stage writing into one new generation of the index, for a reindex. */
    public static IndexStage intoGeneration(String generation, PipelineOptions pipeline, IndexSettings settings) {
        return writing(new SearchSinkBuilder().setConnection(SearchConnection.of(pipeline)).setGeneration(generation),
                pipeline, settings);
    }

    private static IndexStage writing(SearchSinkBuilder search, PipelineOptions pipeline, IndexSettings settings) {
        search.setDeadLetterCodec(codec(pipeline)).setBulkFlushMaxActions(settings.batchSize)
                .setBulkFlushMaxBytes(settings.batchBytes).setBulkFlushInterval(settings.flushInterval);
        return new IndexStage(search.setStage(MetricNames.INDEX).build(),
                search.setStage(MetricNames.FILE_TEXT).buildFileTexts(MongoConnection.of(pipeline)),
                pipeline.indexLayouts(), pipeline.repositoryBlobStores(), settings);
    }

    private static AvroCodec<ImportedEvent> codec(PipelineOptions pipeline) {
        return Connectors.codec(pipeline, pipeline.importedTopic(), ImportedEvent.class);
    }

    /**
     * Adds the stage after {@code imported}: the metadata's writes and the files' text's branch, or either alone
     * ({@code --file-text}); returns what was written (the metadata, or the text alone) and the dead letters.
     */
    public StageOutput<ImportedEvent> apply(DataStream<ImportedEvent> imported) {
        if (settings.fileText == IndexSettings.FileText.only) {
            return fileText(imported);
        }
        SingleOutputStreamOperator<ImportedEvent> indexed = index.writeFrom(imported, "Index in Elasticsearch")
                .uid("index.elasticsearch-writer");
        DataStream<DeadLetter> deadLetters = indexed.getSideOutput(DeadLetters.TAG);
        if (settings.fileText == IndexSettings.FileText.branch && ExtractFileText.needed(layouts)) {
            deadLetters = deadLetters.union(fileText(imported.rebalance()).deadLetters());
        }
        return new StageOutput<>(indexed, deadLetters);
    }

    /** Live repositories' files' text read and written: in slots of its own when so configured. */
    private StageOutput<ImportedEvent> fileText(DataStream<ImportedEvent> imported) {
        int parallelism = settings.fileTextParallelism > 0 ? settings.fileTextParallelism
                : imported.getExecutionEnvironment().getParallelism();
        String group = settings.fileTextSlotSharingGroup;
        SingleOutputStreamOperator<ImportedEvent> texts = imported
                .flatMap(new ExtractFileText(layouts, blobStores, settings.fileTextTimeout, settings.fileTextMaxChars,
                        settings.fileTextMaxMemory)).uid("index.file-text").name("Read files' text")
                .setParallelism(parallelism).slotSharingGroup(group);
        SingleOutputStreamOperator<ImportedEvent> textIndexed = fileText
                .writeFrom(texts, "Index files' text in Elasticsearch").uid("index.file-text-writer")
                .setParallelism(parallelism).slotSharingGroup(group);
        textIndexed.sinkTo(new FileTextDelay()).uid("index.file-text-indexed").name("Files' text indexed")
                .setParallelism(parallelism).slotSharingGroup(group);
        return new StageOutput<>(textIndexed, textIndexed.getSideOutput(DeadLetters.TAG));
    }
}
