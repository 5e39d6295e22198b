package io.volumizer.stores.search.elasticsearch;

import static io.volumizer.stores.search.elasticsearch.Elasticsearch7Engine.JSON;
import static io.volumizer.stores.search.elasticsearch.Elasticsearch7Engine.request;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.http.ConnectionClosedException;
import org.elasticsearch.client.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.Backoff;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.search.Aggregation;
import io.volumizer.stores.search.ScanRequest;
import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;
import io.volumizer.stores.search.SearchResult.Bucket;
import io.volumizer.stores.search.SearchResult.Hit;
import io.volumizer.stores.search.SortField;

/**
 * Reads with {@code _doc}, {@code _search}, {@code _count}, scrolls and points in time. What a {@link SearchQuery}
 * becomes ({@link #body}) and what an answer is read into ({@link #result}) are pure functions, tested without a cluster.
 */
final class Elasticsearch7Reader implements SearchReader {

    private static final Logger LOG = LoggerFactory.getLogger(Elasticsearch7Reader.class);

    private final Elasticsearch7Engine engine;

    Elasticsearch7Reader(Elasticsearch7Engine engine) {
        this.engine = engine;
    }

    @Override
    public Optional<Hit> get(String index, String id, String routing) throws SearchException {
        Request request = new Request("GET", "/" + index + "/_doc/" + id);
        if (routing != null) {
            request.addParameter("routing", routing);
        }
        request.addParameter("ignore", "404"); // an absent document (or index) is an answer, not an error
        JsonNode answer = engine.read(request);
        return answer.path("found").asBoolean() ? Optional.of(hit(answer)) : Optional.empty();
    }

    @Override
    public SearchResult search(List<String> indices, SearchQuery query) throws SearchException {
        if (indices.isEmpty()) {
            return SearchResult.empty();
        }
        Request request = request("POST", "/" + String.join(",", indices) + "/_search", body(query));
        request.addParameter("allow_partial_search_results", "false");
        if (query.routing() != null) {
            request.addParameter("routing", query.routing());
        }
        return result(engine.read(request));
    }

    @Override
    public long count(List<String> indices, ObjectNode query) throws SearchException {
        if (indices.isEmpty()) {
            return 0;
        }
        String path = "/" + String.join(",", indices) + "/_count";
        Request request = query == null ? new Request("GET", path)
                : request("GET", path, JSON.createObjectNode().set("query", query));
        return engine.read(request).path("count").asLong();
    }

    @Override
    public Scan scan(String index, ScanRequest selection) throws SearchException {
        if (selection.pointInTime() != null) {
            return new PointInTimeSlice(selection);
        }
        Request first = request("POST", "/" + index + "/_search", scanPage(selection, true));
        first.addParameter("scroll", keepAlive(selection.keepAlive()));
        return new Scroll(read(first, selection.retry(), false), selection);
    }

    @Override
    public Optional<String> openPointInTime(String index, Duration keepAlive) throws SearchException {
        if (!engine.identity().hasPointInTime()) {
            return Optional.empty();
        }
        Request request = new Request("POST", "/" + index + "/_search/point_in_time");
        request.addParameter("keep_alive", keepAlive(keepAlive));
        JsonNode answer = engine.read(request);
        String pointInTime = answer.path("pit_id").asText();
        if (pointInTime.isBlank()) {
            String reason = "opening a point in time over " + index + " answered no pit_id";
            throw new SearchException(SearchException.Kind.FAILED, reason + ": " + answer, reason, null);
        }
        return Optional.of(pointInTime);
    }

    @Override
    public void closePointInTime(String pointInTime) {
        ObjectNode body = JSON.createObjectNode();
        body.putArray("pit_id").add(pointInTime);
        try {
            engine.send(request("DELETE", "/_search/point_in_time", body));
        } catch (SearchException e) {
            LOG.debug("closing a point in time: {}; it expires after its keep-alive", e.getMessage());
        }
    }

    /** A page of a scan's slice: ids and versions (and the fields asked for) in index order, the cheapest to read. */
    private static ObjectNode scanPage(ScanRequest selection, boolean countTotal) {
        ObjectNode body = JSON.createObjectNode().put("size", selection.pageSize()).put("version", true)
                .put("track_total_hits", countTotal);
        body.set("_source", source(selection.fields()));
        if (selection.query() != null) {
            body.set("query", selection.query());
        }
        body.putArray("sort").add("_doc");
        if (selection.slices() > 1) {
            body.putObject("slice").put("id", selection.slice()).put("max", selection.slices());
        }
        return body;
    }

    /** The request of {@code query}: as the API, the bulk commands and the benchmarks have always sent it. */
    static ObjectNode body(SearchQuery query) {
        ObjectNode body = JSON.createObjectNode().put("size", query.size());
        if (query.countUpTo() == Integer.MAX_VALUE) {
            body.put("track_total_hits", true);
        } else if (query.countUpTo() == 0) {
            body.put("track_total_hits", false);
        } else {
            body.put("track_total_hits", query.countUpTo());
        }
        if (query.fields() != null) {
            body.set("_source", source(query.fields()));
        }
        if (query.timeout() != null) {
            body.put("timeout", query.timeout().toMillis() + "ms");
        }
        if (query.query() != null) {
            body.set("query", query.query());
        }
        if (!query.sort().isEmpty()) {
            ArrayNode sort = body.putArray("sort");
            for (SortField field : query.sort()) {
                sort.addObject().put(field.isRelevance() ? "_score" : field.field(), field.descending() ? "desc" : "asc");
            }
        }
        if (query.after() != null) {
            body.set("search_after", query.after());
        }
        if (!query.aggregations().isEmpty()) {
            ObjectNode aggs = body.putObject("aggs");
            for (Aggregation aggregation : query.aggregations()) {
                if (aggregation instanceof Aggregation.Terms terms) {
                    ObjectNode spec = aggs.putObject(terms.name()).putObject("terms").put("field", terms.field())
                            .put("size", terms.size());
                    if (terms.include() != null) {
                        spec.put("include", terms.include());
                    }
                } else if (aggregation instanceof Aggregation.Monthly monthly) {
                    ObjectNode spec = aggs.putObject(monthly.name()).putObject("date_histogram")
                            .put("field", monthly.field()).put("calendar_interval", "month");
                    if (monthly.format() != null) {
                        spec.put("format", monthly.format());
                    }
                    spec.put("min_doc_count", 1);
                }
            }
        }
        return body;
    }

    /** {@code _source}: none ({@code false}) or the fields named. */
    private static JsonNode source(List<String> fields) {
        if (fields.isEmpty()) {
            return JSON.getNodeFactory().booleanNode(false);
        }
        ArrayNode source = JSON.createArrayNode();
        fields.forEach(source::add);
        return source;
    }

    /** A search's answer. */
    static SearchResult result(JsonNode answer) {
        JsonNode total = answer.path("hits").path("total");
        Map<String, List<Bucket>> aggregations = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = answer.path("aggregations").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> aggregation = it.next();
            List<Bucket> buckets = new ArrayList<>();
            for (JsonNode bucket : aggregation.getValue().path("buckets")) {
                buckets.add(new Bucket(bucket.has("key_as_string") ? bucket.path("key_as_string").asText()
                        : bucket.path("key").asText(), bucket.path("doc_count").asLong()));
            }
            aggregations.put(aggregation.getKey(), buckets);
        }
        JsonNode shards = answer.path("_shards");
        return new SearchResult(total.isMissingNode() ? null
                : new SearchResult.Total(total.path("value").asLong(), total.path("relation").asText("eq").equals("eq")),
                hits(answer), aggregations,
                new SearchResult.Shards(shards.path("total").asInt(), shards.path("successful").asInt()));
    }

    private static List<Hit> hits(JsonNode answer) {
        List<Hit> hits = new ArrayList<>();
        for (JsonNode hit : answer.path("hits").path("hits")) {
            hits.add(hit(hit));
        }
        return hits;
    }

    private static Hit hit(JsonNode hit) {
        JsonNode source = hit.path("_source");
        return new Hit(hit.path("_index").asText(), hit.path("_id").asText(),
                EngineVersions.documentVersion(hit.path("_version").asLong(-1)),
                hit.path("_score").isNumber() ? hit.path("_score").asDouble() : null,
                source.isObject() ? (ObjectNode) source : JSON.createObjectNode(),
                hit.path("sort").isArray() ? (ArrayNode) hit.path("sort") : null);
    }

    private static String keepAlive(Duration keepAlive) {
        return keepAlive.toSeconds() + "s";
    }

    /**
     * A request asked again while the cluster cannot serve, with {@code retry} (null: not at all). A scroll's page
     * that was answered cannot be asked for again, so it is asked again only when no connection took it; a page of
     * a point in time ({@code repeatable}) whenever the cluster could not serve it.
     */
    private JsonNode read(Request request, Backoff retry, boolean repeatable) throws SearchException {
        for (int attempt = 1; ; attempt++) {
            try {
                return engine.read(request);
            } catch (SearchException e) {
                boolean unreachable = e.getCause() instanceof ConnectException
                        || e.getCause() instanceof ConnectionClosedException;
                if (retry == null || !(unreachable || repeatable && e.isServiceFault()) || attempt > retry.maxRetries()) {
                    throw e;
                }
                LOG.warn("{} could not serve a page ({}), retry {} of {}", engine.name(), e.getMessage(), attempt,
                        retry.maxRetries());
                retry.sleep(attempt);
            }
        }
    }

    /** A scroll over one slice: the first page came with its opening. */
    private final class Scroll implements Scan {

        private final ScanRequest scan;
        private final long total;
        private JsonNode unread;
        private String scrollId;

        Scroll(JsonNode first, ScanRequest scan) {
            this.scan = scan;
            this.total = first.path("hits").path("total").path("value").asLong();
            this.unread = first;
            this.scrollId = first.path("_scroll_id").asText(null);
        }

        @Override
        public long total() {
            return total;
        }

        @Override
        public List<Hit> next() throws SearchException {
            if (unread == null) {
                unread = read(request("POST", "/_search/scroll", JSON.createObjectNode()
                        .put("scroll", keepAlive(scan.keepAlive())).put("scroll_id", scrollId)), scan.retry(), false);
                scrollId = unread.path("_scroll_id").asText(scrollId);
            }
            List<Hit> page = hits(unread);
            unread = null;
            return page;
        }

        @Override
        public void close() {
            if (scrollId == null) {
                return;
            }
            try {
                engine.send(request("DELETE", "/_search/scroll", JSON.createObjectNode().put("scroll_id", scrollId)));
            } catch (SearchException e) {
                LOG.debug("clearing a scroll: {}; it expires after {}", e.getMessage(), scan.keepAlive());
            }
        }
    }

    /**
     * One slice of a point in time, paged with {@code search_after} in index order. {@code _doc} repeats across
     * shards, so the document id breaks ties: sorted on {@code _doc} alone, a page ending on one shard's n-th
     * document would skip another shard's. No shard may be left out of a page (a shard that lost the point in time
     * fails it), and a page can be asked again, unlike a scroll's.
     */
    private final class PointInTimeSlice implements Scan {

        private final ScanRequest scan;
        private final long total;
        /** The point in time's id as the engine last answered it (the API lets a page answer a new one). */
        private String pointInTime;
        private JsonNode unread;
        private JsonNode after;
        private boolean last;

        PointInTimeSlice(ScanRequest scan) throws SearchException {
            this.scan = scan;
            this.pointInTime = scan.pointInTime();
            this.unread = page(true);
            this.total = unread.path("hits").path("total").path("value").asLong();
        }

        private JsonNode page(boolean first) throws SearchException {
            ObjectNode body = scanPage(scan, first);
            ((ArrayNode) body.get("sort")).addObject().put(DocumentFields.ID, "asc");
            body.putObject("pit").put("id", pointInTime).put("keep_alive", keepAlive(scan.keepAlive()));
            if (after != null) {
                body.set("search_after", after);
            }
            Request request = request("POST", "/_search", body);
            request.addParameter("allow_partial_search_results", "false");
            return read(request, scan.retry(), true);
        }

        @Override
        public long total() {
            return total;
        }

        @Override
        public List<Hit> next() throws SearchException {
            if (unread == null) {
                if (last) {
                    return List.of();
                }
                unread = page(false);
            }
            List<Hit> page = hits(unread);
            pointInTime = unread.path("pit_id").asText(pointInTime);
            unread = null;
            last = page.size() < scan.pageSize();
            if (!page.isEmpty()) {
                after = page.get(page.size() - 1).sort();
            }
            return page;
        }

        /** Nothing to release: the point in time is every slice's, closed by whoever opened it. */
        @Override
        public void close() {
        }
    }
}
