package io.volumizer.stores.testing;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;

/** Imported events for store tests. */
public final class Events {

    private Events() {
    }

    public static ImportedEvent imported(String repository, String id, String parentId, String name, long version,
            String title) {
        Instant time = Instant.parse("2024-01-01T00:00:00Z");
        DocumentEvent document = DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository(repository)
                .setId(id).setParentId(parentId).setType("Statement").setName(name).setTitle(title)
                .setCreated(time).setModified(time).setProperties(Map.of("closingBalance", 12.5, "city", "Zürich"))
                .setEventTime(time).setVersion(version).build();
        return ImportedEvent.newBuilder().setDocument(document).setAncestorIds(List.of("root", parentId))
                .setPath("/bank/" + parentId + "/" + name).setImportedAt(time).build();
    }
}
