package io.volumizer.schemas.keys;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Headers;

/**
 * Progress marks: records without key or value, carrying this header, that the import writes at the end of every
 * partition of the documents topic at a steady pace. Read back in order with the documents, a mark's timestamp tells
 * how far the import has read a partition even when no document comes (a quiet partition, the end of a run), so the
 * import's event time advances there too. They are not documents: every reader of the topic skips them.
 */
public final class ProgressMarks {

    /** The header that makes a record a mark. */
    public static final String HEADER = "volumizer-progress-mark";
    /** Its value: the header's presence is what counts. */
    public static final byte[] HEADER_VALUE = "1".getBytes(StandardCharsets.UTF_8);

    private ProgressMarks() {
    }

    public static boolean isMark(Headers headers) {
        return headers.lastHeader(HEADER) != null;
    }
}
