package io.volumizer.api.internal;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;

/**
 * A client's JSON, read as a valid request body can be and no bigger: at most {@code maxBytes} (a 413 past it, cut
 * while reading), nested at most {@link #MAX_DEPTH} deep, and an object from its first token, so that neither an
 * array of a million empty objects nor a deep nest is ever built into a tree.
 */
public final class RequestJson {

    /** Deeper than any document, ACL or command a client sends (a document's properties are two levels). */
    public static final int MAX_DEPTH = 16;

    private final ObjectMapper mapper;
    private final long maxBytes;

    public RequestJson(long maxBytes) {
        this.maxBytes = maxBytes;
        int limit = (int) Math.min(Integer.MAX_VALUE, maxBytes);
        this.mapper = new ObjectMapper(JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH).maxStringLength(limit).maxNameLength(1024).maxDocumentLength(maxBytes)
                .build()).build());
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** The request's body as a JSON object: an empty body is an empty object. */
    public ObjectNode object(Context ctx) {
        return object(RequestBodies.read(ctx, maxBytes), true);
    }

    /**
     * {@code body} as a JSON object, an empty body as an empty object when {@code emptyIsObject}, else as null.
     */
    public ObjectNode object(byte[] body, boolean emptyIsObject) {
        if (body.length > maxBytes) {
            throw RequestBodies.tooLarge(maxBytes);
        }
        if (isBlank(body)) {
            return emptyIsObject ? mapper.createObjectNode() : null;
        }
        try (JsonParser parser = mapper.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw invalid("the body must be a JSON object");
            }
            ObjectNode object = mapper.readTree(parser);
            if (parser.nextToken() != null) {
                throw invalid("the body holds more than one JSON value");
            }
            return object;
        } catch (StreamConstraintsException e) {
            throw invalid("the body is nested deeper than " + MAX_DEPTH + " levels or holds a value too long");
        } catch (JsonProcessingException e) {
            throw invalid("the body is not valid JSON: " + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
        } catch (IOException e) {
            throw invalid("the body could not be read as JSON");
        }
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    private static ApiException invalid(String message) {
        return new ApiException(400, "invalid_json", "body", message);
    }
}
