package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.DELETED;
import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.READ_ACL;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.ArrayList;
import java.util.Comparator;
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

import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.reads.ReadGrant;
import io.volumizer.stores.DocumentFields;

/**
 * Children from MongoDB with a keyset filter in each repository: by name on the unique (parentId, name) index, by
 * date on (modified desc, _id) after the last one seen; the repositories' pages merged in the same order, ties
 * broken by id (a name is unique among a parent's children only within one repository). Sees a write as soon as it
 * is imported.
 */
public final class MongoChildren implements Children {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Bson FIELDS = Projections.include(REPOSITORY, TYPE, NAME, TITLE, MODIFIED, VERSION, READ_ACL);
    private static final Comparator<Document> BY_NAME = Comparator.<Document, String>comparing(d -> d.getString(NAME))
            .thenComparing(d -> d.getString(KEY));
    private static final Comparator<Document> BY_DATE = Comparator.<Document, Date>comparing(d -> d.getDate(MODIFIED))
            .reversed().thenComparing(d -> d.getString(KEY));

    private final Documents documents;

    public MongoChildren(Documents documents) {
        this.documents = documents;
    }

    @Override
    public Page list(List<String> repositories, Document parent, Sort sort, int limit, ArrayNode after, ReadGrant grant) {
        String parentId = parent.getString(KEY);
        List<Bson> filters = new ArrayList<>(List.of(Filters.eq(PARENT_ID, parentId), Filters.ne(DELETED, true)));
        Bson order;
        if (sort == Sort.name) {
            if (after != null) {
                // From the last name on, on the index; the one child of that name already seen is dropped below.
                filters.add(Filters.gte(NAME, after.get(0).asText()));
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
        Comparator<Document> merged = sort == Sort.name ? BY_NAME : BY_DATE;
        List<Document> found = new ArrayList<>();
        for (String repository : repositories) {
            documents.collection(repository).find(grant.restrict(Filters.and(filters))).projection(FIELDS).sort(order).limit(limit + 1)
                    .forEach(child -> {
                        if (after == null || sort != Sort.name || !seen(child, after)) {
                            found.add(child);
                        }
                    });
        }
        found.sort(merged);
        List<Document> page = found.subList(0, Math.min(limit, found.size()));
        // The query found only children the caller may read; each is checked again as every document read is.
        ArrayNode items = JSON.createArrayNode();
        page.stream().filter(grant::allows).forEach(child -> items.add(DocumentJson.of(child, "", grant.readsEverything())));
        ArrayNode values = null;
        if (page.size() == limit) {
            Document last = page.get(page.size() - 1);
            values = JSON.createArrayNode();
            if (sort == Sort.name) {
                values.add(last.getString(NAME));
            } else {
                values.add(last.getDate(MODIFIED).getTime());
            }
            values.add(last.getString(KEY));
        }
        return new Page(items, values, null);
    }

    /** Whether a child is at or before the name cursor {@code after} (name, then id). */
    private static boolean seen(Document child, ArrayNode after) {
        int byName = child.getString(NAME).compareTo(after.get(0).asText());
        return byName < 0 || byName == 0 && child.getString(KEY).compareTo(after.get(1).asText()) <= 0;
    }

    @Override
    public boolean any(List<String> repositories, String parentId) {
        for (String repository : repositories) {
            if (documents.collection(repository).find(Filters.and(Filters.eq(PARENT_ID, parentId),
                    Filters.ne(DELETED, true))).projection(Projections.include(KEY)).first() != null) {
                return true;
            }
        }
        return false;
    }
}
