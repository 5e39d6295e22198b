package io.volumizer.stores;

import static io.volumizer.stores.DocumentFields.PROPERTIES;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a document's properties may be, read from JSON: names both stores take as field names (1-64 letters,
 * digits or '_', starting with a letter: no '.', no '$'), values a scalar the documents' schema holds. The API's
 * writes and the bulk commands read them here.
 */
public final class PropertyValues {

    public static final int MAX_PROPERTIES = 200;
    private static final String NAME = "[A-Za-z][A-Za-z0-9_]{0,63}";
    private static final int MAX_TEXT = 32_768;

    private PropertyValues() {
    }

    /**
     * @return the properties in their order, with null, boolean, long, double or string values
     * @throws InvalidFieldException naming the first property (or the object) that cannot be stored
     */
    public static Map<String, Object> read(JsonNode json) {
        if (!json.isObject()) {
            throw new InvalidFieldException(PROPERTIES, "properties must be an object of names to scalar values");
        }
        if (json.size() > MAX_PROPERTIES) {
            throw new InvalidFieldException(PROPERTIES, "at most " + MAX_PROPERTIES + " properties, was " + json.size());
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = json.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String path = DocumentFields.nested(PROPERTIES, field.getKey());
            if (!field.getKey().matches(NAME)) {
                throw new InvalidFieldException(path, "property names are 1-64 letters, digits or '_', starting "
                        + "with a letter, was '" + field.getKey() + "'");
            }
            JsonNode value = field.getValue();
            if (value.isNull()) {
                properties.put(field.getKey(), null);
            } else if (value.isBoolean()) {
                properties.put(field.getKey(), value.booleanValue());
            } else if (value.isIntegralNumber() && value.canConvertToLong()) {
                properties.put(field.getKey(), value.longValue());
            } else if (value.isNumber()) {
                properties.put(field.getKey(), value.doubleValue());
            } else if (value.isTextual() && value.asText().length() <= MAX_TEXT) {
                properties.put(field.getKey(), value.asText());
            } else {
                throw new InvalidFieldException(path, path + " must be a string (up to 32 KiB), number, boolean or null");
            }
        }
        return properties;
    }
}
