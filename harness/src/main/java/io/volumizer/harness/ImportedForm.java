package io.volumizer.harness;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.stores.mongodb.Ancestry;

/**
 * Generated documents as the import job stores and indexes them, ancestry and effective ACL included (every ancestor id is an entry
 * of the navigation index and an indexed term), resolved in memory: the generator emits parents first. Only
 * folders (documents without a file) are remembered, since only they have children.
 */
public final class ImportedForm {

    private final Map<String, Ancestry> folders = new HashMap<>();

    public ImportedEvent of(DocumentEvent document) {
        Ancestry ancestry = document.getParentId() == null ? Ancestry.root(document.getId(), document.getName(), document.getAcl(),
                document.getVersion())
                : Objects.requireNonNull(folders.get(document.getParentId()), "parent after its child")
                        .child(document.getId(), document.getName(), document.getAcl(), document.getVersion());
        if (document.getBlob() == null) {
            folders.put(document.getId(), ancestry);
        }
        return ImportedEvent.newBuilder().setDocument(document).setAncestorIds(ancestry.ancestorIds())
                .setPath(ancestry.path()).setImportedAt(Instant.EPOCH).setEffectiveAcl(ancestry.acl()).build();
    }
}
