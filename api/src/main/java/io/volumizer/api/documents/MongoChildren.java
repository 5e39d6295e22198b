package io.volumizer.api.documents;

import static io.volumizer.sinks.DocumentFields.DELETED;
import static io.volumizer.sinks.DocumentFields.KEY;
import static io.volumizer.sinks.DocumentFields.MODIFIED;
import static io.volumizer.sinks.DocumentFields.NAME;
import static io.volumizer.sinks.DocumentFields.PARENT_ID;
import static io.volumizer.sinks.DocumentFields.TITLE;
import static io.volumizer.sinks.DocumentFields.TYPE;
import static io.volumizer.sinks.DocumentFields.VERSION;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import org.bson.Document;
import org.bson.conversions.Bson;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;

import io.volumizer.api.internal.Cursors;
import io.volumizer.api.internal.DocumentJson;
import io.volumizer.sinks.DocumentFields;

/**
 * Children from MongoDB with a keyset filter: by name on the unique (parentId, name) index, by date on
 * (modified desc, _id) after the last one seen. Sees a write as soon as it is imported.
 */
public final class MongoChildren implements Children {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Bson FIELDS = Projections.include(TYPE, NAME, TITLE, MODIFIED, VERSION);

    private final Documents documents;

    public MongoChildren(Documents documents) {
        this.documents = documents;
    }

    @Override
    public Page list(String repository, String parentId, Sort sort, int limit, ArrayNode after) {
        List<Bson> filters = new ArrayList<>(List.of(Filters.eq(PARENT_ID, parentId), Filters.ne(DELETED, true)));
        Bson order;
        if (sort == Sort.name) {
            if (after != null) {
                filters.add(Filters.gt(NAME, after.get(0).asText()));
            }
            order = Sorts.ascending(NAME);
        } else {
            if (after != null) {
                Date modified = new Date(after.get(0).asLong());
                filters.add(Filters.or(Filters.lt(MODIFIED, modified), Filters.and(Filters.eq(MODIFIED, modified),
                        Filters.gt(KEY, after.get(1).asText()))));
            }
            order = Sorts.orderBy(Sorts.descending(MODIFIED), Sorts.ascending(KEY));
        }
        List<Document> found = documents.collection(repository).find(Filters.and(filters)).projection(FIELDS)
                .sort(order).limit(limit).into(new ArrayList<>());
        ArrayNode items = JSON.createArrayNode();
        found.forEach(child -> items.add(DocumentJson.of(child, "")));
        String next = null;
        if (found.size() == limit) {
            Document last = found.get(found.size() - 1);
            ArrayNode values = JSON.createArrayNode();
            if (sort == Sort.name) {
                values.add(last.getString(NAME));
            } else {
                values.add(last.getDate(MODIFIED).getTime());
            }
            values.add(last.getString(KEY));
            next = Cursors.encode(sort.name(), values);
        }
        return new Page(items, next);
    }

    @Override
    public boolean any(String repository, String parentId) {
        return documents.collection(repository).find(Filters.and(Filters.eq(PARENT_ID, parentId),
                Filters.ne(DELETED, true))).projection(Projections.include(KEY)).first() != null;
    }
}
