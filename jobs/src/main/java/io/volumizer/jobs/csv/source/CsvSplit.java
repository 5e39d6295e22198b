package io.volumizer.jobs.csv.source;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A byte range of one CSV file, cut at rows' ends: where its next row begins ({@code start}), on which line, and
 * where the range ends. A reader advances {@code start} and {@code line} as it emits rows, so a checkpoint of the
 * split resumes mid-file at the next row. Each carries its file's header row, which every reader needs.
 */
public record CsvSplit(String id, String file, long start, long end, long line, String header) implements SourceSplit {

    @Override
    public String splitId() {
        return id;
    }

    /** This split with its next row at {@code nextStart}, on {@code nextLine}. */
    CsvSplit at(long nextStart, long nextLine) {
        return new CsvSplit(id, file, nextStart, end, nextLine, header);
    }

    boolean finished() {
        return start >= end;
    }
}
