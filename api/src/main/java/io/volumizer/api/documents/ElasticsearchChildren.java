package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.FILE_TEXT_INDEXED;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.List;
import java.util.Map;

import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.internal.DocumentJson;
import io.volumizer.api.internal.RepositorySearch;
import io.volumizer.api.reads.ReadGrant;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.search.IndexLayout;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchResult;
import io.volumizer.stores.search.SortField;

/**
 * Children from the repositories' indices: a term filter on parentId, sorted on doc values (ties by id),
 * continued with search_after. Sees a write once it is indexed (about a second after import).
 *
 * <p>Where a repository routes documents to shards by a property that the parent has, its children have the same
 * value (they take their parent's), so only that shard is asked. Repositories asked the same way are searched
 * together, the engine merging their hits; the searches routed differently are merged by
 * {@link SearchResult#merge}.
 */
public final class ElasticsearchChildren implements Children {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FIELDS = List.of(ID, REPOSITORY, TYPE, NAME, TITLE, MODIFIED, VERSION,
            FILE_TEXT_INDEXED);

    private final RepositorySearch search;
    private final Map<String, IndexLayout> layouts;

    /** @param layouts each repository's index layout: the property it routes documents to shards by, if any */
    public ElasticsearchChildren(RepositorySearch search, Map<String, IndexLayout> layouts) {
        this.search = search;
        this.layouts = Map.copyOf(layouts);
    }

    @Override
    public Page list(List<String> repositories, Document parent, Sort sort, int limit, ArrayNode after, ReadGrant grant) {
        SearchQuery query = grant.restrict(children(parent.getString(DocumentFields.KEY), limit))
                .withSort(sort == Sort.name ? SortField.asc(NAME) : SortField.desc(MODIFIED), SortField.asc(ID))
                .withAfter(after);
        Document properties = parent.get(PROPERTIES, Document.class);
        SearchResult found = search.search(RepositorySearch.byRouting(repositories, layouts, property -> {
            Object value = properties == null ? null : properties.get(property);
            return value == null ? null : value.toString();
        }), query);
        List<SearchResult.Hit> page = found.hits();
        ArrayNode items = JSON.createArrayNode();
        page.forEach(hit -> items.add(DocumentJson.ofIndexed(hit.source(), grant.readsEverything())));
        ObjectNode shards = JSON.createObjectNode().put("total", found.shards().total())
                .put("successful", found.shards().successful());
        return new Page(items, page.size() == limit ? page.get(page.size() - 1).sort() : null, shards);
    }

    @Override
    public boolean any(List<String> repositories, String parentId) {
        return !search.search(repositories, children(parentId, 1)).hits().isEmpty();
    }

    /** The first {@code limit} children of a parent, uncounted. */
    private static SearchQuery children(String parentId, int limit) {
        ObjectNode query = JSON.createObjectNode();
        query.putObject("bool").putArray("filter").addObject().putObject("term").put(PARENT_ID, parentId);
        return SearchQuery.of(query).withSize(limit).withFields(FIELDS);
    }
}
