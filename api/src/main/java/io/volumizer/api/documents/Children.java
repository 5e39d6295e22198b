package io.volumizer.api.documents;

import java.util.List;

import org.bson.Document;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.reads.ReadGrant;

/** Children of a document, a keyset page at a time. */
public interface Children {

    /** Orders of a children listing. */
    enum Sort {
        name, date;
    }

    /**
     * One page: the children (id, repository, type, name, title, modified, version), the sort values of its last
     * child when a next page may follow, or null, and the index shards asked ({total, successful}), or null where no
     * index was.
     */
    record Page(ArrayNode items, ArrayNode last, ObjectNode shards) {
    }

    /**
     * The children in any of {@code repositories} (a parent's children may be in several: an account's live and
     * archived statements), one keyset page in one order across them, ties broken by id.
     *
     * @param parent the parent, as MongoDB holds it
     * @param after  sort values (the sort key, then the id) of the last child of the previous page, or null for the
     *              first page
     * @param grant  what the caller may read: only those children are listed
     */
    Page list(List<String> repositories, Document parent, Sort sort, int limit, ArrayNode after, ReadGrant grant);

    /**
     * Whether the document has at least one live child in any of {@code repositories}, whoever may read it: what a
     * write checks before it renames or deletes the document.
     */
    boolean any(List<String> repositories, String parentId);
}
