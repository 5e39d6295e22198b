package io.volumizer.jobs.csv.source;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;

/**
 * Reads its splits' rows one at a time and emits each with its file and line; the split's offset and line move
 * past a row as it is emitted, so a checkpoint (taken between two rows) resumes at the next one. Blank lines are
 * skipped. It asks for one split at a time: the splits left go to readers that finish first.
 */
final class CsvReader implements SourceReader<CsvRow, CsvSplit> {

    private static final int ATTEMPTS = 5;

    private final SourceReaderContext context;
    private final CsvInputs inputs;
    private final Deque<CsvSplit> splits = new ArrayDeque<>();
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean noMoreSplits;
    private CsvSplit current;
    private InputStream stream;
    private RowReader rows;
    /** The bytes and line feeds of the row read last. */
    private long rowBytes;
    private long rowLines;

    CsvReader(SourceReaderContext context, CsvInputs inputs) {
        this.context = context;
        this.inputs = inputs;
    }

    @Override
    public void start() {
        context.sendSplitRequest();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<CsvRow> output) throws Exception {
        while (true) {
            if (current == null) {
                current = splits.poll();
                if (current == null) {
                    if (noMoreSplits) {
                        return InputStatus.END_OF_INPUT;
                    }
                    available = new CompletableFuture<>();
                    return InputStatus.NOTHING_AVAILABLE;
                }
                open();
            }
            String row = nextRow();
            if (row == null) {
                finishSplit();
                continue;
            }
            long line = current.line();
            current = current.at(current.start() + rowBytes, line + rowLines);
            if (rows.truncated() || !row.isBlank()) {
                output.collect(new CsvRow(current.file(), line, current.header(), rows.truncated() ? null : row));
                if (current.finished()) {
                    finishSplit();
                }
                return InputStatus.MORE_AVAILABLE;
            }
        }
    }

    private void open() throws IOException {
        stream = inputs.open(current.file(), current.start(), current.end());
        rows = new RowReader(stream, current.end() - current.start(), true);
    }

    /**
     * The next row of the current split. A read that fails (an S3 connection reset while the job was throttled) is
     * tried again from the row's start, which the split knows exactly; after {@value #ATTEMPTS} attempts the task
     * fails and restarts from its checkpoint.
     */
    private String nextRow() throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            long bytesBefore = rows.consumed();
            long linesBefore = rows.lines();
            try {
                String row = rows.next();
                rowBytes = rows.consumed() - bytesBefore;
                rowLines = rows.lines() - linesBefore;
                return row;
            } catch (IOException e) {
                if (attempt == ATTEMPTS) {
                    throw new IOException("row at byte " + current.start() + " of " + current.file() + " not read after "
                            + ATTEMPTS + " attempts", e);
                }
                stream.close();
                Thread.sleep(1000L * attempt);
                open();
            }
        }
    }

    private void finishSplit() throws IOException {
        stream.close();
        stream = null;
        rows = null;
        current = null;
        if (splits.isEmpty() && !noMoreSplits) {
            context.sendSplitRequest();
        }
    }

    @Override
    public List<CsvSplit> snapshotState(long checkpointId) {
        List<CsvSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current);
        }
        state.addAll(splits);
        return state;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<CsvSplit> added) {
        splits.addAll(added);
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() throws IOException {
        if (stream != null) {
            stream.close();
        }
        inputs.close();
    }
}
