package io.volumizer.loadtest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;

/**
 * Who may read each document of a generated run, worked out by brute force from the generator's ACL layout (each
 * document's effective ACL from its parent's, in index order), never from what the API or the stores say: the load
 * tests' check of every answer against the user who asked.
 */
public final class ReadableDocuments {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each document's readers; documents without an ACL of their own share their parent's list. */
    private final Map<String, List<String>> readers;

    ReadableDocuments(Map<String, List<String>> readers) {
        this.readers = readers;
    }

    /** Every document of the run the settings describe. */
    public static ReadableDocuments of(GeneratorSettings settings) {
        BankGenerator generator = new BankGenerator(settings);
        Map<String, EffectiveAcl> effective = new HashMap<>();
        Map<String, List<String>> readers = new HashMap<>();
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if (document == null) {
                continue;
            }
            EffectiveAcl acl = AclInheritance.effective(
                    document.getParentId() == null ? null : effective.get(document.getParentId()), document.getAcl());
            // Only folders have children: the leaves' ACLs need not be kept to compute others'.
            if (document.getBlob() == null) {
                effective.put(document.getId(), acl);
            }
            readers.put(document.getId(), acl.getRead());
        }
        return new ReadableDocuments(readers);
    }

    /**
     * The documents in a JSON answer (every object with an {@code id}: a document, a child, an ancestor, a search
     * hit) that a caller with {@code principals} may not read, each with why; empty when the answer is allowed.
     * A document the run did not generate (one a load test created) reads as its parent, since it has no ACL of its
     * own; one whose parent is not generated either cannot be vouched for and counts as forbidden. An answer that is
     * not JSON (a file) holds no document.
     */
    public List<String> forbidden(String body, Collection<String> principals) {
        if (principals.contains(Principals.ADMINISTRATORS) || !looksLikeJson(body)) {
            return List.of();
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return List.of();
        }
        List<String> forbidden = new ArrayList<>();
        collect(tree, null, principals, forbidden);
        return forbidden;
    }

    /**
     * @param enclosingParent the parent id the enclosing object names (a children page's), for the documents in it
     *                        that do not name theirs
     */
    private void collect(JsonNode node, String enclosingParent, Collection<String> principals, List<String> forbidden) {
        String parent = node.path("parentId").isTextual() ? node.get("parentId").asText() : enclosingParent;
        if (node.isObject() && node.path("id").isTextual()) {
            String id = node.get("id").asText();
            List<String> allowed = readers.get(id);
            if (allowed == null && parent != null) {
                allowed = readers.get(parent);
            }
            if (allowed == null) {
                forbidden.add(id + " (not in the generated layout)");
            } else if (allowed.stream().noneMatch(principals::contains)) {
                forbidden.add(id + " (read by " + allowed + ")");
            }
        }
        node.forEach(child -> collect(child, parent, principals, forbidden));
    }

    private static boolean looksLikeJson(String body) {
        String start = body.stripLeading();
        return start.startsWith("{") || start.startsWith("[");
    }
}
