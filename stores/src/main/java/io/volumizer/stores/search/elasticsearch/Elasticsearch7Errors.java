package io.volumizer.stores.search.elasticsearch;

import java.io.IOException;
import java.io.InputStream;

import org.elasticsearch.client.ResponseException;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.stores.search.SearchException;
import io.volumizer.stores.search.SearchException.Kind;

/** The low-level client's failures as {@link SearchException}s: its status codes stay in here. */
final class Elasticsearch7Errors {

    private Elasticsearch7Errors() {
    }

    static SearchException of(IOException e) {
        if (!(e instanceof ResponseException answered)) {
            return new SearchException(Kind.UNREACHABLE, e.getMessage(), String.valueOf(e.getMessage()), e);
        }
        int status = answered.getResponse().getStatusLine().getStatusCode();
        Kind kind = switch (status) {
            case 404 -> Kind.NOT_FOUND;
            case 400 -> Kind.INVALID;
            case 413 -> Kind.TOO_LARGE;
            case 429, 502, 503, 504 -> Kind.UNAVAILABLE;
            default -> Kind.FAILED;
        };
        return new SearchException(kind, e.getMessage(), reason(answered), e);
    }

    /** The first root cause's reason, else the error's: what Elasticsearch says went wrong, without the request. */
    private static String reason(ResponseException e) {
        try (InputStream in = e.getResponse().getEntity().getContent()) {
            JsonNode error = Elasticsearch7Engine.JSON.readTree(in).path("error");
            JsonNode root = error.path("root_cause").path(0);
            String reason = (root.isMissingNode() ? error : root).path("reason").asText(null);
            return reason != null ? reason : e.getMessage();
        } catch (IOException | RuntimeException unreadable) {
            return e.getMessage();
        }
    }
}
