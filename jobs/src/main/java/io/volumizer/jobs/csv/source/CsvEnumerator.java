package io.volumizer.jobs.csv.source;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Cuts the files into splits once, off the coordinator's thread, then hands a split to each reader that asks;
 * splits a failed reader had come back. Its checkpoint holds the splits no reader has, so a restored job neither
 * cuts the files again nor reads a split twice.
 */
final class CsvEnumerator implements SplitEnumerator<CsvSplit, CsvSplitSerializer.EnumeratorState> {

    private final SplitEnumeratorContext<CsvSplit> context;
    private final CsvInputs inputs;
    private final long splitSize;
    private final Deque<CsvSplit> pending;
    private final Set<Integer> waiting = new TreeSet<>();
    private boolean cut;

    CsvEnumerator(SplitEnumeratorContext<CsvSplit> context, CsvInputs inputs, long splitSize,
            CsvSplitSerializer.EnumeratorState restored) {
        this.context = context;
        this.inputs = inputs;
        this.splitSize = splitSize;
        this.pending = new ArrayDeque<>(restored.pending());
        this.cut = restored.cut();
    }

    @Override
    public void start() {
        if (!cut) {
            context.callAsync(() -> CsvSplits.cut(inputs, splitSize), (splits, error) -> {
                if (error != null) {
                    throw new IllegalStateException("the CSV files could not be read: " + error.getMessage(), error);
                }
                pending.addAll(splits);
                cut = true;
                assignWaiting();
            });
        }
    }

    @Override
    public void handleSplitRequest(int subtask, String requesterHostname) {
        waiting.add(subtask);
        assignWaiting();
    }

    private void assignWaiting() {
        if (!cut) {
            return;
        }
        for (Integer subtask : List.copyOf(waiting)) {
            if (!context.registeredReaders().containsKey(subtask)) {
                waiting.remove(subtask);
            } else if (!pending.isEmpty()) {
                context.assignSplit(pending.poll(), subtask);
                waiting.remove(subtask);
            } else {
                context.signalNoMoreSplits(subtask);
                waiting.remove(subtask);
            }
        }
    }

    @Override
    public void addSplitsBack(List<CsvSplit> splits, int subtask) {
        splits.forEach(pending::addFirst);
    }

    @Override
    public void addReader(int subtask) {
        // a reader asks for its splits itself
    }

    @Override
    public CsvSplitSerializer.EnumeratorState snapshotState(long checkpointId) {
        return new CsvSplitSerializer.EnumeratorState(cut, List.copyOf(pending));
    }

    @Override
    public void close() {
        inputs.close();
    }
}
