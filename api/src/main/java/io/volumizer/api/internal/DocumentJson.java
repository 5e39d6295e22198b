package io.volumizer.api.internal;

import java.util.Date;
import java.util.List;
import java.util.Map;

import org.bson.Document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The JSON a client sees of a stored document: {@code _id} as {@code id}, dates as ISO-8601. */
public final class DocumentJson {

    private static final JsonNodeFactory NODES = new ObjectMapper().getNodeFactory();

    private DocumentJson() {
    }

    public static ObjectNode of(Document stored, String apiPrefix) {
        ObjectNode json = NODES.objectNode();
        for (Map.Entry<String, Object> field : stored.entrySet()) {
            String name = field.getKey().equals("_id") ? "id" : field.getKey();
            put(json, name, field.getValue());
        }
        if (json.has("blob")) {
            ((ObjectNode) json.get("blob")).remove("key");
            ((ObjectNode) json.get("blob")).put("href", apiPrefix + "/documents/" + stored.getString("_id") + "/blob");
        }
        return json;
    }

    /** The ETag of a stored version. */
    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    private static void put(ObjectNode json, String name, Object value) {
        if (value == null) {
            json.putNull(name);
        } else if (value instanceof String text) {
            json.put(name, text);
        } else if (value instanceof Long number) {
            json.put(name, number);
        } else if (value instanceof Integer number) {
            json.put(name, number);
        } else if (value instanceof Double number) {
            json.put(name, number);
        } else if (value instanceof Boolean flag) {
            json.put(name, flag);
        } else if (value instanceof Date date) {
            json.put(name, date.toInstant().toString());
        } else if (value instanceof Document nested) {
            ObjectNode child = json.putObject(name);
            nested.forEach((key, nestedValue) -> put(child, key, nestedValue));
        } else if (value instanceof List<?> list) {
            ArrayNode array = json.putArray(name);
            for (Object item : list) {
                ObjectNode holder = NODES.objectNode();
                put(holder, "v", item);
                array.add(holder.get("v"));
            }
        } else {
            json.put(name, value.toString());
        }
    }
}
