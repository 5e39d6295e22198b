package io.volumizer.sinks.internal;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;

/** How the bulk writers of the import and index stages size their batches. */
public final class ImportedEventSizes {

    private ImportedEventSizes() {
    }

    /**
     * A cheap estimate of a document's size in a bulk request (no serialization on the hot path): its text values
     * count twice (each is also copied into the fulltext field), the file's text once. The writer still halves a
     * request the engine finds too large.
     */
    public static long estimate(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        long properties = 0;
        for (Object value : document.getProperties().values()) {
            properties += 48 + (value instanceof CharSequence text ? 2L * text.length() : 16);
        }
        long fileText = event.getFileText() == null ? 0 : event.getFileText().length();
        return 256 + 2L * (document.getTitle().length() + event.getPath().length()) + properties + fileText;
    }
}
