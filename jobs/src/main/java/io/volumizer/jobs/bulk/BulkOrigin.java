package io.volumizer.jobs.bulk;

import org.bson.Document;

import io.volumizer.schemas.event.Origin;
import io.volumizer.stores.DocumentFields;

/** The origin of the changes a bulk command makes: the command's id, by which a replay knows what it already changed. */
public final class BulkOrigin {

    private static final String SOURCE = "bulk";

    private BulkOrigin() {
    }

    public static Origin of(String commandId) {
        return Origin.newBuilder().setSource(SOURCE).setCommand(commandId).build();
    }

    /** Whether the stored document's last change is this command's. */
    public static boolean changedBy(Document stored, String commandId) {
        Document origin = stored.get(DocumentFields.ORIGIN, Document.class);
        return origin != null && commandId.equals(origin.getString(DocumentFields.Origin.COMMAND));
    }
}
