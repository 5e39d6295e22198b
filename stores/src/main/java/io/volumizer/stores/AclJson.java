package io.volumizer.stores;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.schemas.event.Ace;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.Permission;

/**
 * A document's own ACL as JSON, the form the API takes and a setAcl command's job is given:
 * {@code {"aces": [{"principal", "permission": READ|WRITE|MANAGE, "granted"}], "blockInheritance"}}.
 */
public final class AclJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AclJson() {
    }

    /**
     * @param field where the ACL is in its request ({@code acl}, {@code params.acl}), which refusals name
     * @throws InvalidFieldException naming the field at fault
     */
    public static Acl read(JsonNode json, String field) {
        String aces = field + "." + DocumentFields.Acl.ACES;
        String block = field + "." + DocumentFields.Acl.BLOCK_INHERITANCE;
        if (json == null || !json.isObject() || !json.path(DocumentFields.Acl.ACES).isArray()) {
            throw new InvalidFieldException(aces, field + " must be an object with an array 'aces'");
        }
        JsonNode blockInheritance = json.path(DocumentFields.Acl.BLOCK_INHERITANCE);
        if (!blockInheritance.isMissingNode() && !blockInheritance.isBoolean()) {
            throw new InvalidFieldException(block, block + " must be true or false");
        }
        List<Ace> entries = new ArrayList<>();
        for (JsonNode ace : json.get(DocumentFields.Acl.ACES)) {
            String entry = aces + "[" + entries.size() + "]";
            JsonNode principal = ace.path(DocumentFields.Acl.PRINCIPAL);
            JsonNode permission = ace.path(DocumentFields.Acl.PERMISSION);
            JsonNode granted = ace.path(DocumentFields.Acl.GRANTED);
            if (!principal.isTextual() || principal.asText().isBlank()) {
                throw new InvalidFieldException(entry, entry + " needs a principal (a user or group name)");
            }
            if (!permission.isTextual() || Arrays.stream(Permission.values()).noneMatch(p -> p.name().equals(permission.asText()))) {
                throw new InvalidFieldException(entry, entry + ".permission must be one of " + Arrays.toString(Permission.values()));
            }
            if (!granted.isBoolean()) {
                throw new InvalidFieldException(entry, entry + ".granted must be true (grant) or false (deny)");
            }
            entries.add(new Ace(principal.asText(), Permission.valueOf(permission.asText()), granted.asBoolean()));
        }
        return new Acl(entries, blockInheritance.asBoolean(false));
    }

    /** @throws InvalidFieldException when {@code text} is not JSON, or not an ACL */
    public static Acl read(String text, String field) {
        try {
            return read(JSON.readTree(text), field);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InvalidFieldException(field, field + " is not JSON: " + e.getOriginalMessage());
        }
    }

    public static ObjectNode write(Acl acl) {
        ObjectNode json = JSON.createObjectNode();
        ArrayNode aces = json.putArray(DocumentFields.Acl.ACES);
        for (Ace ace : acl.getAces()) {
            aces.addObject().put(DocumentFields.Acl.PRINCIPAL, ace.getPrincipal())
                    .put(DocumentFields.Acl.PERMISSION, ace.getPermission().name()).put(DocumentFields.Acl.GRANTED, ace.getGranted());
        }
        return json.put(DocumentFields.Acl.BLOCK_INHERITANCE, acl.getBlockInheritance());
    }
}
