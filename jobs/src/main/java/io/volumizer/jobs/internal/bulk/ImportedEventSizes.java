package io.volumizer.jobs.internal.bulk;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;

/** How the bulk writers of the import and index stages size their batches. */
public final class ImportedEventSizes {

    private ImportedEventSizes() {
    }

    /** A cheap estimate of a document's size in a bulk request (no serialization on the hot path). */
    public static long estimate(ImportedEvent event) {
        DocumentEvent document = event.getDocument();
        return 256 + 2L * (document.getTitle().length() + event.getPath().length())
                + 48L * document.getProperties().size();
    }
}
