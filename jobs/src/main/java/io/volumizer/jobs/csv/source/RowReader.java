package io.volumizer.jobs.csv.source;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Rows of an RFC 4180 file, as bytes: a row ends at a line feed outside a quoted field, so a quoted field may hold
 * line breaks. A field is quoted only when it begins with a double quote ({@code 12" ruler} is text), and its quote
 * closes at a quote that is not doubled. It counts the bytes and the lines it consumed, for a split's next offset and
 * line; both the cutting of files into splits and their reading use it, so they agree where rows end.
 */
final class RowReader {

    private enum State { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED }

    private final InputStream in;
    private final long limit;
    private boolean keep;
    private final ByteArrayOutputStream row = new ByteArrayOutputStream(512);
    private long consumed;
    private long lines;
    private boolean truncated;

    /**
     * Reads at most {@code limit} bytes of {@code in} (buffered by the caller); {@code keep}: whether rows' text is
     * wanted, or only where they end.
     */
    RowReader(InputStream in, long limit, boolean keep) {
        this.in = in;
        this.limit = limit;
        this.keep = keep;
    }

    /**
     * The next row without its line end ({@code \n} or {@code \r\n}); null at the limit or the end; "" when rows' text
     * is not kept, or a row's was longer than {@link #CsvRow.MAX_TEXT_BYTES}.
     */
    String next() throws IOException {
        row.reset();
        truncated = false;
        State state = State.FIELD_START;
        boolean any = false;
        while (consumed < limit) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            consumed++;
            any = true;
            if (b == '\n') {
                lines++;
            }
            state = switch (state) {
                case FIELD_START -> b == '"' ? State.QUOTED : b == ',' || b == '\n' ? State.FIELD_START : State.UNQUOTED;
                case UNQUOTED -> b == ',' || b == '\n' ? State.FIELD_START : State.UNQUOTED;
                case QUOTED -> b == '"' ? State.QUOTE_IN_QUOTED : State.QUOTED;
                case QUOTE_IN_QUOTED -> b == '"' ? State.QUOTED : b == ',' || b == '\n' ? State.FIELD_START : State.UNQUOTED;
            };
            if (b == '\n' && state == State.FIELD_START) {
                return text();
            }
            if (keep && !truncated) {
                if (row.size() < CsvRow.MAX_TEXT_BYTES) {
                    row.write(b);
                } else {
                    truncated = true;
                }
            }
        }
        return any ? text() : null;
    }

    private String text() {
        if (!keep || truncated) {
            return "";
        }
        byte[] bytes = row.toByteArray();
        int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    /** From now on, keep rows' text or not. */
    void keepText(boolean keepText) {
        keep = keepText;
    }

    /** Whether the last row was longer than {@link #CsvRow.MAX_TEXT_BYTES}: its text was not kept. */
    boolean truncated() {
        return truncated;
    }

    /** Bytes read so far. */
    long consumed() {
        return consumed;
    }

    /** Line feeds read so far. */
    long lines() {
        return lines;
    }
}
