package io.volumizer.benchmarks.reliability;

import static io.volumizer.stores.DocumentFields.KEY;
import static io.volumizer.stores.DocumentFields.VERSION;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.bson.Document;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Projections;

/**
 * What a store holds against what was generated, document by document, read through the official clients (never
 * a job metric): how many are there, missing, extra (an id nobody generated, or found twice), or at another version.
 */
final class StoreAudit {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The audit of one store. */
    record Findings(long found, long missing, long extra, long otherVersion) {

        boolean exact() {
            return missing == 0 && extra == 0 && otherVersion == 0;
        }
    }

    private StoreAudit() {
    }

    /** Every document of the collection, by id and version. */
    static Findings mongo(MongoCollection<Document> collection, Map<String, Long> expected) {
        Tally tally = new Tally(expected);
        for (Document document : collection.find().projection(Projections.include(KEY, VERSION)).batchSize(5_000)) {
            tally.saw(document.getString(KEY), document.getLong(VERSION));
        }
        return tally.findings();
    }

    /** Every document of the index, by id and version, through a scroll. */
    static Findings elasticsearch(RestClient client, String index, Map<String, Long> expected) throws IOException {
        client.performRequest(new Request("POST", "/" + index + "/_refresh"));
        Tally tally = new Tally(expected);
        Request search = new Request("POST", "/" + index + "/_search");
        search.addParameter("scroll", "1m");
        search.setEntity(new NStringEntity("{\"size\":5000,\"_source\":[\"" + VERSION + "\"],\"sort\":[\"_doc\"]}",
                ContentType.APPLICATION_JSON));
        JsonNode page = read(client, search);
        while (page.path("hits").path("hits").size() > 0) {
            for (JsonNode hit : page.path("hits").path("hits")) {
                tally.saw(hit.path("_id").asText(), hit.path("_source").path(VERSION).asLong());
            }
            Request next = new Request("POST", "/_search/scroll");
            next.setEntity(new NStringEntity(JSON.createObjectNode().put("scroll", "1m")
                    .put("scroll_id", page.path("_scroll_id").asText()).toString(), ContentType.APPLICATION_JSON));
            page = read(client, next);
        }
        Request clear = new Request("DELETE", "/_search/scroll");
        clear.setEntity(new NStringEntity(JSON.createObjectNode().put("scroll_id", page.path("_scroll_id").asText())
                .toString(), ContentType.APPLICATION_JSON));
        client.performRequest(clear);
        return tally.findings();
    }

    private static JsonNode read(RestClient client, Request request) throws IOException {
        try (InputStream in = client.performRequest(request).getEntity().getContent()) {
            return JSON.readTree(in);
        }
    }

    /** Counts what a store returned against the expected id → version. */
    private static final class Tally {
        private final Map<String, Long> expected;
        private final Set<String> seen = new HashSet<>();
        private long extra;
        private long otherVersion;

        Tally(Map<String, Long> expected) {
            this.expected = expected;
        }

        void saw(String id, long version) {
            Long wanted = expected.get(id);
            if (wanted == null || !seen.add(id)) {
                extra++;
            } else if (wanted != version) {
                otherVersion++;
            }
        }

        Findings findings() {
            return new Findings(seen.size() + extra, expected.size() - seen.size(), extra, otherVersion);
        }
    }
}
