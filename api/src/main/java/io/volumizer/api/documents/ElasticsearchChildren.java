package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.MODIFIED;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.REPOSITORY;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.api.internal.Cursors;
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
 * together and Elasticsearch merges their hits; the hits of searches routed differently are merged here in the same
 * order, the first {@code limit} kept (each search returns its own first {@code limit} after the cursor).
 */
public final class ElasticsearchChildren implements Children {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FIELDS = List.of(ID, REPOSITORY, TYPE, NAME, TITLE, MODIFIED, VERSION);
    /** Hits by their sort values: the name ascending or the date descending, then the id. */
    private static final Comparator<SearchResult.Hit> BY_NAME = Comparator
            .<SearchResult.Hit, String>comparing(hit -> hit.sort().get(0).asText())
            .thenComparing(hit -> hit.sort().get(1).asText());
    private static final Comparator<SearchResult.Hit> BY_DATE = Comparator
            .<SearchResult.Hit>comparingLong(hit -> hit.sort().get(0).asLong())
            .reversed().thenComparing(hit -> hit.sort().get(1).asText());

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
        List<SearchResult.Hit> hits = new ArrayList<>();
        int total = 0;
        int successful = 0;
        Map<String, List<String>> byRouting = byRouting(repositories, parent);
        for (Map.Entry<String, List<String>> searched : byRouting.entrySet()) {
            SearchResult found = search.search(searched.getValue(), query.withRouting(searched.getKey()));
            hits.addAll(found.hits());
            total += found.shards().total();
            successful += found.shards().successful();
        }
        if (byRouting.size() > 1) {
            hits.sort(sort == Sort.name ? BY_NAME : BY_DATE);
        }
        List<SearchResult.Hit> page = hits.stream().limit(limit).toList();
        ArrayNode items = JSON.createArrayNode();
        page.forEach(hit -> items.add(DocumentJson.ofIndexed(hit.source(), grant.readsEverything())));
        ObjectNode shards = JSON.createObjectNode().put("total", total).put("successful", successful);
        return new Page(items, Cursors.next(sort.name(), page, limit), shards);
    }

    /**
     * The repositories by the routing value their search carries: the parent's value of the property a repository
     * routes by, or null (all shards) where it routes by none or the parent has no value.
     */
    private Map<String, List<String>> byRouting(List<String> repositories, Document parent) {
        Document properties = parent.get(PROPERTIES, Document.class);
        Map<String, List<String>> byRouting = new LinkedHashMap<>();
        for (String repository : repositories) {
            String property = layouts.getOrDefault(repository, IndexLayout.TEMPLATE).routing();
            Object value = property == null || properties == null ? null : properties.get(property);
            byRouting.computeIfAbsent(value == null ? null : value.toString(), key -> new ArrayList<>()).add(repository);
        }
        return byRouting;
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
