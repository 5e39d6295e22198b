package io.volumizer.jobs.bulk;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.apache.http.HttpHost;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.model.Updates;

import io.volumizer.jobs.internal.StageMetrics;
import io.volumizer.jobs.internal.stores.MongoConnection;
import io.volumizer.domain.selection.Selection;
import io.volumizer.stores.Backoff;
import io.volumizer.stores.commands.CommandStore;
import io.volumizer.stores.search.IndexNames;
import io.volumizer.options.conventions.MetricNames;

/**
 * Reads one slice of the selection from the repository's index with a scroll (ids and versions only): a scroll
 * reads the index as it was when it opened, so the selection holds still while documents change, and slices are
 * read in parallel. A slice is read whole within one call, so a checkpoint comes before or after it: after a
 * restart, a slice that was being read is read again from its start. Each slice's size goes into the command
 * record ({@code slices.<n>}), the status's total.
 */
final class ReadSlice extends RichFlatMapFunction<Long, Selected> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ReadSlice.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String elasticsearchUrl;
    private final IndexNames indices;
    private final String repository;
    private final LinkedHashMap<String, String> filters;
    private final int slices;
    private final int pageSize;
    private final Duration keepAlive;
    private final MongoConnection mongo;
    private final String commandId;
    private final Backoff backoff;
    private transient RestClient client;
    private transient CommandStore commands;
    private transient Counter rangesDone;

    ReadSlice(String elasticsearchUrl, IndexNames indices, String repository, Map<String, String> filters, int slices,
            int pageSize, Duration keepAlive, MongoConnection mongo, String commandId, Backoff backoff) {
        this.elasticsearchUrl = elasticsearchUrl;
        this.indices = indices;
        this.repository = repository;
        this.filters = new LinkedHashMap<>(filters);
        this.slices = slices;
        this.pageSize = pageSize;
        this.keepAlive = keepAlive;
        this.mongo = mongo;
        this.commandId = commandId;
        this.backoff = backoff;
    }

    @Override
    public void open(OpenContext context) {
        client = RestClient.builder(HttpHost.create(elasticsearchUrl)).build();
        commands = new CommandStore(mongo.openShared(getRuntimeContext()));
        // A slice is the bulk's range; it has no failed state of its own (a failure fails the job, which reads it again).
        rangesDone = StageMetrics.of(getRuntimeContext().getMetricGroup(), MetricNames.BULK).counter(MetricNames.RANGES_DONE);
    }

    @Override
    public void flatMap(Long slice, Collector<Selected> out) throws IOException {
        ObjectNode body = JSON.createObjectNode().put("size", pageSize).put("version", true).put("_source", false)
                .put("track_total_hits", true);
        body.set("query", Selection.parse(filters).query());
        body.putArray("sort").add("_doc");
        if (slices > 1) {
            body.putObject("slice").put("id", slice).put("max", slices);
        }
        Request first = new Request("POST", "/" + indices.of(repository) + "/_search");
        first.addParameter("scroll", keepAlive.toSeconds() + "s");
        first.setEntity(new NStringEntity(body.toString(), ContentType.APPLICATION_JSON));
        JsonNode page = send(first);
        String scrollId = page.path("_scroll_id").asText(null);
        try {
            long total = page.path("hits").path("total").path("value").asLong();
            commands.set(commandId, Updates.set("slices." + slice, total));
            while (page.path("hits").path("hits").size() > 0) {
                for (JsonNode hit : page.path("hits").path("hits")) {
                    out.collect(new Selected(hit.path("_id").asText(), hit.path("_version").asLong()));
                }
                Request next = new Request("POST", "/_search/scroll");
                next.setEntity(new NStringEntity(JSON.createObjectNode().put("scroll", keepAlive.toSeconds() + "s")
                        .put("scroll_id", scrollId).toString(), ContentType.APPLICATION_JSON));
                page = send(next);
                scrollId = page.path("_scroll_id").asText(scrollId);
            }
            rangesDone.inc();
        } finally {
            clear(scrollId);
        }
    }

    /** A request, retried with backoff while Elasticsearch cannot be reached. */
    private JsonNode send(Request request) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try (InputStream in = client.performRequest(request).getEntity().getContent()) {
                return JSON.readTree(in);
            } catch (java.net.ConnectException | org.apache.http.ConnectionClosedException e) {
                if (attempt > backoff.maxRetries()) {
                    throw e;
                }
                LOG.warn("{}: Elasticsearch unreachable ({}), retry {}", commandId, e.getMessage(), attempt);
                backoff.sleep(attempt);
            }
        }
    }

    private void clear(String scrollId) {
        if (scrollId == null) {
            return;
        }
        try {
            Request clear = new Request("DELETE", "/_search/scroll");
            clear.setEntity(new NStringEntity(JSON.createObjectNode().put("scroll_id", scrollId).toString(),
                    ContentType.APPLICATION_JSON));
            client.performRequest(clear);
        } catch (IOException e) {
            LOG.debug("clearing a scroll: {}; it expires after {}", e.getMessage(), keepAlive);
        }
    }

    @Override
    public void close() throws IOException {
        if (client != null) {
            client.close();
        }
        mongo.close();
    }
}
