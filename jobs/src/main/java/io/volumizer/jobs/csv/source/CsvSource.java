package io.volumizer.jobs.csv.source;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The rows of CSV files (FLIP-27, bounded): the files are cut into byte-range splits at rows' ends, read in parallel,
 * and a checkpoint holds each split's next row, so a restarted job resumes mid-file.
 */
public final class CsvSource implements Source<CsvRow, CsvSplit, CsvSplitSerializer.EnumeratorState>,
        ResultTypeQueryable<CsvRow> {

    private static final long serialVersionUID = 1L;

    private final CsvInputs inputs;
    private final long splitSize;

    public CsvSource(CsvInputs inputs, long splitSize) {
        this.inputs = inputs;
        this.splitSize = splitSize;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<CsvRow, CsvSplit> createReader(SourceReaderContext context) {
        return new CsvReader(context, inputs);
    }

    @Override
    public SplitEnumerator<CsvSplit, CsvSplitSerializer.EnumeratorState> createEnumerator(
            SplitEnumeratorContext<CsvSplit> context) {
        return new CsvEnumerator(context, inputs, splitSize, new CsvSplitSerializer.EnumeratorState(false, java.util.List.of()));
    }

    @Override
    public SplitEnumerator<CsvSplit, CsvSplitSerializer.EnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<CsvSplit> context, CsvSplitSerializer.EnumeratorState checkpoint) {
        return new CsvEnumerator(context, inputs, splitSize, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<CsvSplit> getSplitSerializer() {
        return CsvSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<CsvSplitSerializer.EnumeratorState> getEnumeratorCheckpointSerializer() {
        return new CsvSplitSerializer.EnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<CsvRow> getProducedType() {
        return TypeInformation.of(CsvRow.class);
    }
}
