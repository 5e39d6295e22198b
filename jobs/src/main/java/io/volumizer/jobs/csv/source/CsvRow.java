package io.volumizer.jobs.csv.source;

/** One row of a CSV file as read: its file, the line it begins on, its file's header row, and its text. */
public final class CsvRow {

    /** A longer row is not kept: its text is null (an unclosed quote swallowing the rest of its file, most likely). */
    public static final int MAX_TEXT_BYTES = 16 << 20;

    public String file;
    public long line;
    public String header;
    public String text;

    /** For Flink's POJO serializer. */
    public CsvRow() {
    }

    public CsvRow(String file, long line, String header, String text) {
        this.file = file;
        this.line = line;
        this.header = header;
        this.text = text;
    }
}
