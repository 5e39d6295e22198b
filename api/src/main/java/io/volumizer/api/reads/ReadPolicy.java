package io.volumizer.api.reads;

import org.bson.Document;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a caller may read: the one decision behind every read of the API, applied by {@link ReadGrant} both to the
 * Elasticsearch queries a read runs and to the documents it reads from MongoDB, so the two never disagree.
 */
public interface ReadPolicy {

    /** Every caller reads every document: the only policy while documents carry no permissions. */
    ReadPolicy EVERYTHING = new ReadPolicy() {

        @Override
        public ObjectNode searchFilter(Caller caller) {
            ObjectNode matchAll = JsonNodeFactory.instance.objectNode();
            matchAll.putObject("match_all");
            return matchAll;
        }

        @Override
        public boolean mayRead(Caller caller, Document document) {
            return true;
        }
    };

    /**
     * A query clause, for a bool query's filter, that matches exactly the indexed documents {@code caller} may read;
     * a new node at each call, as the search it joins may be changed.
     */
    ObjectNode searchFilter(Caller caller);

    /** Whether {@code caller} may read {@code document}, as MongoDB holds it: a repository's document or a command's record. */
    boolean mayRead(Caller caller, Document document);
}
