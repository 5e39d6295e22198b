package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.ACL;
import static io.volumizer.stores.DocumentFields.ID;
import static io.volumizer.stores.DocumentFields.NAME;
import static io.volumizer.stores.DocumentFields.PARENT_ID;
import static io.volumizer.stores.DocumentFields.PROPERTIES;
import static io.volumizer.stores.DocumentFields.TITLE;
import static io.volumizer.stores.DocumentFields.TYPE;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.RequestJson;
import io.volumizer.schemas.event.Acl;
import io.volumizer.stores.AclJson;
import io.volumizer.stores.PropertyValues;
import io.volumizer.stores.InvalidFieldException;

/**
 * A document as a client sends it (JSON), checked field by field: every refusal names the field. Absent fields
 * are null; on update they keep the stored value. Its ACL, as stored: {@code {"aces": [{"principal", "permission":
 * READ|WRITE|MANAGE, "granted"}], "blockInheritance"}}.
 */
public record DocumentInput(String id, String parentId, String type, String name, String title,
        Map<String, Object> properties, Acl acl) {

    private static final List<String> FIELDS = List.of(ID, PARENT_ID, TYPE, NAME, TITLE, PROPERTIES, ACL);

    /** The document {@code body} holds, read by {@code json}'s limits. */
    public static DocumentInput parse(RequestJson json, byte[] body) {
        return parse(json.object(body, false));
    }

    public static DocumentInput parse(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw ApiException.badRequest("body", "body must be a JSON object");
        }
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!FIELDS.contains(field)) {
                throw ApiException.badRequest(field, "unknown field '" + field + "'; fields: " + String.join(", ", FIELDS));
            }
        }
        String id = text(json, ID, "[A-Za-z0-9][A-Za-z0-9._-]{0,127}", "1-128 letters, digits, '.', '_' or '-'");
        String parentId = text(json, PARENT_ID, ".{1,256}", "1-256 characters");
        String type = text(json, TYPE, "[A-Z][A-Za-z0-9]{0,63}", "a type name such as Statement (a capital letter, then letters or digits)");
        String name = text(json, NAME, "[^/\\p{Cntrl}]{1,255}", "1-255 characters, no '/' or control characters");
        String title = text(json, TITLE, "[^\\p{Cntrl}]{0,1024}", "at most 1024 characters, no control characters");
        return new DocumentInput(id, parentId, type, name, title, properties(json.get(PROPERTIES)), acl(json.get(ACL)));
    }

    /** For create: what must be there. */
    public DocumentInput requireForCreate() {
        require(parentId, PARENT_ID);
        require(type, TYPE);
        require(name, NAME);
        return this;
    }

    private static void require(String value, String field) {
        if (value == null) {
            throw ApiException.badRequest(field, field + " is required");
        }
    }

    private static String text(JsonNode json, String field, String pattern, String expected) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(field, field + " must be a string, was " + value.getNodeType().toString().toLowerCase());
        }
        if (!value.asText().matches(pattern)) {
            throw ApiException.badRequest(field, field + " must be " + expected);
        }
        return value.asText();
    }

    private static Map<String, Object> properties(JsonNode json) {
        if (json == null || json.isNull()) {
            return null;
        }
        try {
            return PropertyValues.read(json);
        } catch (InvalidFieldException e) {
            throw ApiException.badRequest(e.field(), e.getMessage());
        }
    }

    private static Acl acl(JsonNode json) {
        if (json == null || json.isNull()) {
            return null;
        }
        try {
            return AclJson.read(json, ACL);
        } catch (InvalidFieldException e) {
            throw ApiException.badRequest(e.field(), e.getMessage());
        }
    }
}
