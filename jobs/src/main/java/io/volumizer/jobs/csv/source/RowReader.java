package io.volumizer.jobs.csv.source;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Rows of an RFC 4180 file, as bytes: a row ends at a line feed outside double quotes, so a quoted field may hold
 * line breaks. It counts the bytes and the lines it consumed, for a split's next offset and line; both the cutting
 * of files into splits and their reading use it, so they agree where rows end.
 */
final class RowReader {

    private final InputStream in;
    private final long limit;
    private final ByteArrayOutputStream row = new ByteArrayOutputStream(512);
    private long consumed;
    private long lines;

    /** Reads at most {@code limit} bytes of {@code in} (buffered by the caller). */
    RowReader(InputStream in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    /** The next row without its line end ({@code \n} or {@code \r\n}), or null at the limit or the end. */
    String next() throws IOException {
        row.reset();
        boolean quoted = false;
        boolean any = false;
        while (consumed < limit) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            consumed++;
            any = true;
            if (b == '"') {
                quoted = !quoted;
            } else if (b == '\n') {
                lines++;
                if (!quoted) {
                    return text();
                }
            }
            row.write(b);
        }
        return any ? text() : null;
    }

    private String text() {
        byte[] bytes = row.toByteArray();
        int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
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
