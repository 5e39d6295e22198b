package io.volumizer.stores.search;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.CREATED;
import static io.volumizer.stores.DocumentFields.FILE_TEXT;
import static io.volumizer.stores.DocumentFields.FULLTEXT;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A selection of documents as an Elasticsearch {@code bool} query: what a search and a bulk command both select
 * by. Every user value goes in as a JSON value, never spliced into a string.
 */
public final class SelectionQuery {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SelectionQuery() {
    }

    /**
     * @param q simple query syntax over the title, the fulltext and the file text, or null
     * @param types document types, any of them (none: all)
     * @param ancestorIds folders the documents are below, any of them (none: all)
     * @param properties property name to the values the documents have, any of them (none: all)
     * @param from created at or after, or null
     * @param to created at or before, or null
     */
    public static ObjectNode bool(String q, List<String> types, List<String> ancestorIds,
            Map<String, List<String>> properties, Instant from, Instant to) {
        ObjectNode query = JSON.createObjectNode();
        ObjectNode bool = query.putObject("bool");
        if (q != null) {
            bool.putObject("must").putObject("simple_query_string").put("query", q).put("default_operator", "and")
                    .put("flags", "AND|OR|NOT|PHRASE|PREFIX|PRECEDENCE|WHITESPACE|ESCAPE")
                    .putArray("fields").add(TITLE + "^2").add(FULLTEXT).add(FILE_TEXT);
        }
        ArrayNode filter = bool.putArray("filter");
        if (!types.isEmpty()) {
            filter.addObject().putObject("terms").set(TYPE, strings(types));
        }
        if (!ancestorIds.isEmpty()) {
            filter.addObject().putObject("terms").set(ANCESTOR_IDS, strings(ancestorIds));
        }
        properties.forEach((property, values) -> {
            if (!values.isEmpty()) {
                filter.addObject().putObject("terms").set(PROPERTIES + "." + property, strings(values));
            }
        });
        if (from != null || to != null) {
            ObjectNode range = filter.addObject().putObject("range").putObject(CREATED);
            if (from != null) {
                range.put("gte", from.toString());
            }
            if (to != null) {
                range.put("lte", to.toString());
            }
        }
        return query;
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode array = JSON.createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
