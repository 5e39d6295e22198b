package io.volumizer.api.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.search.SearchResult;

/**
 * Opaque keyset cursors: the sort they were made for and the sort values of the last item returned, base64url
 * encoded. A page continues after those values (search_after, or a keyset filter), never by offset.
 */
public final class Cursors {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Cursors() {
    }

    public static String encode(String sort, ArrayNode after) {
        ObjectNode cursor = JSON.createObjectNode().put("sort", sort);
        cursor.set("after", after);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor after a full page of search hits (their last sort values), or null after a short one. */
    public static String next(String sort, List<SearchResult.Hit> hits, int limit) {
        return hits.size() == limit ? encode(sort, hits.get(hits.size() - 1).sort()) : null;
    }

    /** The sort values to continue after, or null without a cursor; a cursor of another sort is a 400. */
    public static ArrayNode decode(String cursor, String sort, int values) {
        if (cursor == null) {
            return null;
        }
        JsonNode node;
        try {
            node = JSON.readTree(Base64.getUrlDecoder().decode(cursor));
        } catch (IllegalArgumentException | IOException e) {
            throw ApiException.badRequest("cursor", "cursor is not one this API returned");
        }
        if (node == null || !node.path("after").isArray() || node.path("after").size() != values) {
            throw ApiException.badRequest("cursor", "cursor is not one this API returned");
        }
        if (!sort.equals(node.path("sort").asText())) {
            throw ApiException.badRequest("cursor", "cursor was made for sort=" + node.path("sort").asText()
                    + ", not sort=" + sort);
        }
        for (JsonNode value : node.path("after")) {
            if (!value.isValueNode() || value.isNull()) {
                throw ApiException.badRequest("cursor", "cursor is not one this API returned");
            }
        }
        return (ArrayNode) node.path("after");
    }
}
