package io.volumizer.api.reads;

import static io.volumizer.stores.DocumentFields.READ_ACL;

import java.util.List;

import org.bson.Document;
import org.bson.conversions.Bson;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Filters;

import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;

/**
 * What a caller may read: the one decision behind every read of the API, applied by {@link ReadGrant} to the
 * Elasticsearch queries a read runs, to the MongoDB queries that list documents, and to the documents it read from
 * MongoDB, so the three never disagree; and, by the same rule, what it may write or manage ({@link #holds}).
 *
 * <p>Nuxeo's model: the import stores each document's effective read ACL, the principals that may read it
 * ({@code readAcl}, computed from its ancestors' ACLs), in both stores; a caller reads a document when one of its
 * principals is in it. Administrators read everything. A document without a read ACL (stored before ACLs existed)
 * is read by administrators only.
 */
public final class ReadPolicy {

    /**
     * A query clause, for a bool query's filter, that matches exactly the indexed documents {@code caller} may read;
     * a new node at each call, as the search it joins may be changed.
     */
    public ObjectNode searchFilter(Caller caller) {
        ObjectNode clause = JsonNodeFactory.instance.objectNode();
        if (caller.administrator()) {
            clause.putObject("match_all");
        } else {
            ArrayNode principals = clause.putObject("terms").putArray(READ_ACL);
            caller.principals().stream().sorted().forEach(principals::add);
        }
        return clause;
    }

    /** A MongoDB filter that matches exactly the stored documents {@code caller} may read. */
    public Bson storeFilter(Caller caller) {
        return caller.administrator() ? new Document() : Filters.in(READ_ACL, caller.principals());
    }

    /**
     * Whether {@code caller} may read {@code document}, as MongoDB holds it: a repository's document or a command's
     * record (which names its readers the same way).
     */
    public boolean mayRead(Caller caller, Document document) {
        return holds(caller, document, Permission.READ);
    }

    /** Whether {@code caller} holds {@code permission} on {@code document}, as MongoDB holds it. */
    public boolean holds(Caller caller, Document document, Permission permission) {
        return caller.administrator()
                || document.getList(DocumentFields.holdersOf(permission), String.class, List.of()).stream()
                        .anyMatch(caller.principals()::contains);
    }
}
