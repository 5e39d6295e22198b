package io.volumizer.api.documents;

import com.fasterxml.jackson.databind.node.ArrayNode;

/** Children of a document, a keyset page at a time. */
public interface Children {

    /** Orders of a children listing. */
    enum Sort {
        name, date;
    }

    /** One page: the children (id, type, name, title, modified, version) and the cursor of the next, or null. */
    record Page(ArrayNode items, String next) {
    }

    /** @param after sort values of the last child of the previous page, or null for the first page */
    Page list(String repository, String parentId, Sort sort, int limit, ArrayNode after);

    /** Whether the document has at least one live child. */
    boolean any(String repository, String parentId);
}
