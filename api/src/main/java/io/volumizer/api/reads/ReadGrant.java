package io.volumizer.api.reads;

import org.bson.Document;
import org.bson.conversions.Bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Filters;

import io.volumizer.api.internal.ApiMetrics;
import io.volumizer.stores.search.SearchQuery;

/**
 * What one request's caller may read, on the request's route: applied to every Elasticsearch query of documents
 * the request runs ({@link #restrict(SearchQuery)}), to every MongoDB query that lists documents
 * ({@link #restrict(Bson)}) and to every document it read from MongoDB before it answers with it or a part of it
 * ({@link #allows}). Each application is counted by route template and what it applied to, so that a
 * read route that does not apply it shows (its count stays zero).
 */
public final class ReadGrant {

    /** What a grant was applied to; a metric tag. */
    private enum Applied { search, store, document }

    private final Caller caller;
    private final String route;
    private final ReadPolicy policy;
    private final ApiMetrics metrics;

    ReadGrant(Caller caller, String route, ReadPolicy policy, ApiMetrics metrics) {
        this.caller = caller;
        this.route = route;
        this.policy = policy;
        this.metrics = metrics;
    }

    /**
     * Keeps out of a search what the caller may not read: the policy's clause joins the filters of its query, a bool
     * query (one is made around any other query, or none), so that hits, totals and aggregations count only the rest.
     */
    public SearchQuery restrict(SearchQuery search) {
        metrics.readGranted(route, Applied.search.name());
        return search.withQuery(filtered(search.query(), policy.searchFilter(caller)));
    }

    private static ObjectNode filtered(ObjectNode query, ObjectNode filter) {
        ObjectNode restricted;
        if (query != null && query.size() == 1 && query.get("bool") instanceof ObjectNode) {
            restricted = query.deepCopy();
        } else {
            restricted = JsonNodeFactory.instance.objectNode();
            if (query != null) {
                restricted.putObject("bool").putArray("must").add(query);
            }
        }
        ObjectNode bool = restricted.withObject("/bool");
        // A bool query's filter is one clause or an array of them.
        JsonNode filters = bool.remove("filter");
        ArrayNode all = bool.putArray("filter");
        if (filters != null && filters.isArray()) {
            all.addAll((ArrayNode) filters);
        } else if (filters != null) {
            all.add(filters);
        }
        all.add(filter);
        return restricted;
    }

    /**
     * Whether the caller reads everything (an administrator): only then may an answer carry what is derived from
     * documents it might not read (a document's path and ancestor ids, a hit's relevance score, whose term
     * statistics count every document of the shard).
     */
    public boolean readsEverything() {
        return caller.administrator();
    }

    /**
     * Keeps out of a MongoDB listing what the caller may not read, in the query itself: a page of children is then
     * a page of readable ones, however few of a folder's children the caller may read.
     */
    public Bson restrict(Bson storeQuery) {
        metrics.readGranted(route, Applied.store.name());
        return Filters.and(storeQuery, policy.storeFilter(caller));
    }

    /**
     * Whether the caller may read {@code document}, as MongoDB holds it. A route answers for an unreadable document
     * as for one that does not exist, and leaves it out of a list.
     */
    public boolean allows(Document document) {
        metrics.readGranted(route, Applied.document.name());
        return policy.mayRead(caller, document);
    }
}
