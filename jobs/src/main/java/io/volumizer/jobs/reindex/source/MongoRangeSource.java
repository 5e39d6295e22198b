package io.volumizer.jobs.reindex.source;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.jobs.reindex.source.enumerator.RangeEnumerator;
import io.volumizer.jobs.reindex.source.enumerator.RangeSourceState;
import io.volumizer.jobs.reindex.source.reader.RangeSourceReader;
import io.volumizer.jobs.reindex.source.split.IdRange;

/**
 * A repository's documents read from MongoDB by id ranges (FLIP-27, bounded): the enumerator cuts the ids into
 * ranges ({@link RangeEnumerator}), readers read them in parallel with a cursor each ({@link RangeSplitReader}),
 * and a checkpoint holds the ranges still to hand out and, per range being read, the last id emitted. A stopped or
 * failed reindex resumes where it was. Written on the official driver: the Flink MongoDB connector's source
 * cannot split on the local stand-in (no splitVector) and never sets a cursor batch size.
 */
public final class MongoRangeSource implements Source<ImportedEvent, IdRange, RangeSourceState>,
        ResultTypeQueryable<ImportedEvent> {

    private static final long serialVersionUID = 1L;

    private final RangeSettings settings;

    public MongoRangeSource(RangeSettings settings) {
        this.settings = settings;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<ImportedEvent, IdRange> createReader(SourceReaderContext context) {
        return new RangeSourceReader(settings, context);
    }

    @Override
    public SplitEnumerator<IdRange, RangeSourceState> createEnumerator(SplitEnumeratorContext<IdRange> context) {
        return new RangeEnumerator(context, settings, RangeEnumerator.initialState());
    }

    @Override
    public SplitEnumerator<IdRange, RangeSourceState> restoreEnumerator(SplitEnumeratorContext<IdRange> context,
            RangeSourceState state) {
        return new RangeEnumerator(context, settings, state);
    }

    @Override
    public SimpleVersionedSerializer<IdRange> getSplitSerializer() {
        return new IdRange.Serializer();
    }

    @Override
    public SimpleVersionedSerializer<RangeSourceState> getEnumeratorCheckpointSerializer() {
        return new RangeSourceState.Serializer();
    }

    @Override
    public TypeInformation<ImportedEvent> getProducedType() {
        return TypeInformation.of(ImportedEvent.class);
    }
}
