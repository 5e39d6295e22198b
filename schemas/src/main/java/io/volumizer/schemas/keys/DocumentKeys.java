package io.volumizer.schemas.keys;

import io.volumizer.schemas.event.DocumentEvent;

/** How document events are keyed on the documents topic; every writer (generator, API, CSV import) uses it. */
public final class DocumentKeys {

    private DocumentKeys() {
    }

    /**
     * A document's parent id, or its own id for a root: a parent's children land on one partition and meet one
     * import subtask with its parent cache.
     */
    public static String parentKey(DocumentEvent document) {
        return document.getParentId() != null ? document.getParentId() : document.getId();
    }
}
