package io.volumizer.api.internal;

import static io.volumizer.stores.DocumentFields.BLOB;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.KEY;

import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.bson.Document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.stores.DocumentFields;

/**
 * The JSON a client sees of a stored document: {@code _id} as {@code id}, dates as ISO-8601, without the effective
 * ACLs (which principals may read, write or manage it: the stores' security index, not the document's content;
 * its own ACL is shown). Its location (path, ancestor ids) names every ancestor, so it is shown only to a caller that
 * reads everything; others have the ancestors route, which leaves out the ancestors they may not read.
 */
public final class DocumentJson {

    private static final JsonNodeFactory NODES = new ObjectMapper().getNodeFactory();
    private static final Set<String> HIDDEN = Set.of(DocumentFields.READ_ACL, DocumentFields.WRITE_ACL,
            DocumentFields.MANAGE_ACL);
    private static final Set<String> LOCATION = Set.of(DocumentFields.PATH, DocumentFields.ANCESTOR_IDS);

    private DocumentJson() {
    }

    /** @param withLocation whether the caller reads everything, and so may see the document's location */
    public static ObjectNode of(Document stored, String apiPrefix, boolean withLocation) {
        ObjectNode json = NODES.objectNode();
        for (Map.Entry<String, Object> field : stored.entrySet()) {
            if (HIDDEN.contains(field.getKey()) || !withLocation && LOCATION.contains(field.getKey())) {
                continue;
            }
            String name = field.getKey().equals(KEY) ? ID : field.getKey();
            json.set(name, node(field.getValue()));
        }
        if (json.has(BLOB)) {
            ((ObjectNode) json.get(BLOB)).remove(DocumentFields.Blob.KEY);
            ((ObjectNode) json.get(BLOB)).put("href", apiPrefix + "/documents/" + stored.getString(KEY) + "/blob");
        }
        return json;
    }

    /** An indexed document as a client sees it: its search hit's source, without the effective ACLs (nor its location, as above). */
    public static ObjectNode ofIndexed(ObjectNode source, boolean withLocation) {
        ObjectNode json = source.deepCopy();
        json.remove(HIDDEN);
        if (!withLocation) {
            json.remove(LOCATION);
        }
        return json;
    }

    /** The ETag of a stored version. */
    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    private static JsonNode node(Object value) {
        if (value == null) {
            return NODES.nullNode();
        } else if (value instanceof String text) {
            return NODES.textNode(text);
        } else if (value instanceof Long number) {
            return NODES.numberNode(number);
        } else if (value instanceof Integer number) {
            return NODES.numberNode(number);
        } else if (value instanceof Double number) {
            return NODES.numberNode(number);
        } else if (value instanceof Boolean flag) {
            return NODES.booleanNode(flag);
        } else if (value instanceof Date date) {
            return NODES.textNode(date.toInstant().toString());
        } else if (value instanceof Document nested) {
            ObjectNode object = NODES.objectNode();
            nested.forEach((key, nestedValue) -> object.set(key, node(nestedValue)));
            return object;
        } else if (value instanceof List<?> list) {
            ArrayNode array = NODES.arrayNode();
            list.forEach(item -> array.add(node(item)));
            return array;
        }
        return NODES.textNode(value.toString());
    }
}
