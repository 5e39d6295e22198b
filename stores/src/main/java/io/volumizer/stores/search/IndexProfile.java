package io.volumizer.stores.search;

import java.util.Locale;

/** What a repository's index holds of each document. */
public enum IndexProfile {
    /** Metadata: every field and property, and a fulltext field of the title and text properties. */
    METADATA,
    /** Metadata and the text inside the document's file (statements' PDF, letters' DOCX), read by the index stage. */
    LIVE,
    /** A reduced set: the fields navigation and filters use, no fulltext and no file text (rarely searched by text). */
    ARCHIVE;

    /** As a topology file and a calibration name it: {@code metadata}, {@code live}, {@code archive}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
