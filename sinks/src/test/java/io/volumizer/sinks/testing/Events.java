package io.volumizer.sinks.testing;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.Operation;

/** Imported documents for sink tests. */
public final class Events {

    private Events() {
    }

    public static DocumentEvent document(String id, String parentId, String name) {
        Instant time = Instant.parse("2024-01-01T00:00:00Z");
        return DocumentEvent.newBuilder().setOperation(Operation.CREATE).setRepository("bank").setId(id)
                .setParentId(parentId).setType("Folder").setName(name).setTitle(name).setCreated(time)
                .setModified(time).setProperties(Map.of()).setEventTime(time).setVersion(1L).build();
    }

    public static ImportedEvent imported(String id) {
        return ImportedEvent.newBuilder().setDocument(document(id, "p", id)).setAncestorIds(List.of("p"))
                .setPath("/p/" + id).setImportedAt(Instant.EPOCH).build();
    }
}
