package io.volumizer.stores.search.elasticsearch;

/**
 * The external version the search engine keeps of a document: twice the document's version, plus one in the form
 * that carries its file's text. A document is written twice in a live repository, its metadata at once and its
 * text once extracted; so ordered, neither write can undo the other, whichever comes first or is replayed: the
 * metadata of a version never replaces its text ({@code 2v < 2v + 1}, refused as stale), the text of an older
 * version never replaces a newer one ({@code 2v + 1 < 2(v + 1)}), and the text of a version replaces its metadata
 * alone. {@code DocumentVersions.MAX} keeps both within a long.
 */
final class EngineVersions {

    private EngineVersions() {
    }

    /** The engine's version of a document's version, in the form with its file's text or without. */
    static long of(long documentVersion, boolean withFileText) {
        return documentVersion * 2 + (withFileText ? 1 : 0);
    }

    /** The document's version of the engine's; a missing one (negative) stays as it is. */
    static long documentVersion(long engineVersion) {
        return engineVersion < 0 ? engineVersion : engineVersion / 2;
    }
}
