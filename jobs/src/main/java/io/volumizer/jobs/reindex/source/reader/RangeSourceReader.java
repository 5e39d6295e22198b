package io.volumizer.jobs.reindex.source.reader;

import java.util.Map;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.jobs.reindex.source.RangeSettings;
import io.volumizer.jobs.reindex.source.split.IdRange;

/**
 * A reader of the reindex source: one fetcher thread reads its ranges ({@link RangeSplitReader}); the task's
 * thread emits the documents and notes, per range, the last id emitted, which is the range's state in a
 * checkpoint. It asks the enumerator for the next range when one is done.
 */
public final class RangeSourceReader extends SingleThreadMultiplexSourceReaderBase<ImportedEvent, ImportedEvent, IdRange, IdRange> {

    public RangeSourceReader(RangeSettings settings, SourceReaderContext context) {
        this(settings, context, RangeCounts.of(context.metricGroup()));
    }

    /** The counts are registered once: a fetcher's split reader may be made again after it went idle. */
    private RangeSourceReader(RangeSettings settings, SourceReaderContext context, RangeCounts counts) {
        super(() -> new RangeSplitReader(settings, settings.maxDocsPerSecond() / context.currentParallelism(), counts),
                new Emitter(), new Configuration(), context);
    }

    @Override
    public void start() {
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected void onSplitFinished(Map<String, IdRange> finished) {
        context.sendSplitRequest();
    }

    @Override
    protected IdRange initializedState(IdRange range) {
        return range;
    }

    @Override
    protected IdRange toSplitType(String splitId, IdRange state) {
        return state.copy();
    }

    /** Emits a document and moves its range's state past it. */
    private static final class Emitter implements RecordEmitter<ImportedEvent, ImportedEvent, IdRange> {
        @Override
        public void emitRecord(ImportedEvent event, SourceOutput<ImportedEvent> output, IdRange range) {
            output.collect(event);
            range.emitted(event.getDocument().getId());
        }
    }
}
