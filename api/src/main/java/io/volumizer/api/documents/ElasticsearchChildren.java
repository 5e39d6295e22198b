package io.volumizer.api.documents;

import static io.volumizer.sinks.DocumentFields.ID;
import static io.volumizer.sinks.DocumentFields.MODIFIED;
import static io.volumizer.sinks.DocumentFields.NAME;
import static io.volumizer.sinks.DocumentFields.PARENT_ID;
import static io.volumizer.sinks.DocumentFields.REPOSITORY;
import static io.volumizer.sinks.DocumentFields.TITLE;
import static io.volumizer.sinks.DocumentFields.TYPE;
import static io.volumizer.sinks.DocumentFields.VERSION;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.Elasticsearch;
import io.volumizer.sinks.DocumentFields;

/**
 * Children from the repositories' indices: a term filter on parentId, sorted on doc values (ties by id),
 * continued with search_after; Elasticsearch merges the repositories' hits. Sees a write once it is indexed (about a second after import).
 */
public final class ElasticsearchChildren implements Children {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ArrayNode FIELDS = JSON.createArrayNode().add(ID).add(REPOSITORY).add(TYPE).add(NAME).add(TITLE)
            .add(MODIFIED).add(VERSION);

    private final Elasticsearch elasticsearch;

    public ElasticsearchChildren(Elasticsearch elasticsearch) {
        this.elasticsearch = elasticsearch;
    }

    @Override
    public Page list(List<String> repositories, String parentId, Sort sort, int limit, ArrayNode after) {
        ObjectNode body = query(parentId, limit);
        ArrayNode order = body.putArray("sort");
        if (sort == Sort.name) {
            order.addObject().put(NAME, "asc");
        } else {
            order.addObject().put(MODIFIED, "desc");
        }
        order.addObject().put(ID, "asc");
        if (after != null) {
            body.set("search_after", after);
        }
        JsonNode hits = elasticsearch.search(repositories, body, null).path("hits").path("hits");
        ArrayNode items = JSON.createArrayNode();
        hits.forEach(hit -> items.add(hit.path("_source")));
        return new Page(items, Cursors.next(sort.name(), hits, limit));
    }

    @Override
    public boolean any(List<String> repositories, String parentId) {
        return elasticsearch.search(repositories, query(parentId, 1), null).path("hits").path("hits").size() > 0;
    }

    private static ObjectNode query(String parentId, int limit) {
        ObjectNode body = JSON.createObjectNode().put("size", limit).put("track_total_hits", false);
        body.set("_source", FIELDS);
        body.putObject("query").putObject("bool").putArray("filter").addObject().putObject("term").put(PARENT_ID, parentId);
        return body;
    }
}
