package io.volumizer.jobs.csv.source;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts CSV files into splits of about {@code splitSize} bytes at rows' ends, reading each file once: its first row is
 * its header, and each split knows the line its first row is on, so that a reader names a row's line without having
 * read what came before.
 */
final class CsvSplits {

    private static final String BYTE_ORDER_MARK = "\uFEFF";

    private CsvSplits() {
    }

    static List<CsvSplit> cut(CsvInputs inputs, long splitSize) throws IOException {
        List<CsvSplit> splits = new ArrayList<>();
        for (CsvInputs.Input input : inputs.list()) {
            try (InputStream in = inputs.open(input.file(), 0, input.length())) {
                RowReader rows = new RowReader(in, input.length(), true);
                String header = rows.next();
                if (header == null) {
                    continue; // an empty file: no rows
                }
                header = header.startsWith(BYTE_ORDER_MARK) ? header.substring(1) : header; // Excel's "CSV UTF-8"
                rows.keepText(false);
                long start = rows.consumed();
                long line = rows.lines() + 1;
                while (rows.next() != null) {
                    if (rows.consumed() - start >= splitSize) {
                        splits.add(new CsvSplit(input.file() + "@" + start, input.file(), start, rows.consumed(), line, header));
                        start = rows.consumed();
                        line = rows.lines() + 1;
                    }
                }
                if (start < rows.consumed()) {
                    splits.add(new CsvSplit(input.file() + "@" + start, input.file(), start, rows.consumed(), line, header));
                }
            }
        }
        return splits;
    }
}
