package io.volumizer.schemas.keys;

/**
 * The versions a document event may carry. Stores keep the newest version of a document and drop older ones, so a
 * version at the top of the range would freeze its document for good: no write could follow it. The ceiling leaves
 * room above it (the search index keeps twice a version, plus one once the file's text is in, within a long), and
 * every writer here stays far below it (the generator starts at 1, a bulk
 * command adds 1, the API issues microseconds since the epoch, about 2^51 today).
 */
public final class DocumentVersions {

    public static final long MIN = 1;
    public static final long MAX = 1L << 61;
    public static final String RULE = "from " + MIN + " to 2^61";

    private DocumentVersions() {
    }

    public static boolean isValid(long version) {
        return version >= MIN && version <= MAX;
    }
}
