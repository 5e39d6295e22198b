package io.volumizer.api.documents;

import static io.volumizer.stores.DocumentFields.ANCESTOR_IDS;
import static io.volumizer.stores.DocumentFields.DELETED;
import static io.volumizer.stores.DocumentFields.KEY;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.mongodb.client.model.CountOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;

import io.volumizer.api.internal.ApiException;
import io.volumizer.api.reads.Caller;
import io.volumizer.api.reads.ReadPolicy;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Operation;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;

/**
 * A folder's descendants deleted with it ({@code ?recursive=true}), in any repository of the topology, deepest first.
 * First every descendant's id, depth and write holders are read, a page at a time, and the delete refused at the first
 * one the caller may not write, or past {@code maxRecursiveDelete}: no version is allocated and no document read whole
 * before. Then each level's documents are read and their tombstones appended and awaited in MongoDB before the level
 * above, since the import resolves a document's delete through its parent, which must still be live then (a deleted
 * parent leaves its children's events parked, then dead-lettered). A level that is not applied within the wait
 * timeout is a 504 with the folder still there; the same request again goes on with what is left.
 */
public final class RecursiveDelete {

    /** The flag a delete of a document with children needs: its descendants are deleted with it. */
    public static final String RECURSIVE = "recursive";

    private static final Logger LOG = LoggerFactory.getLogger(RecursiveDelete.class);
    /** How many descendants a recursive delete reads at a time while it checks the caller's rights. */
    private static final int DESCENDANTS_PAGE = 500;

    private final Documents documents;
    private final ReadPolicy policy;
    private final DocumentsTopic topic;
    private final AppliedWrites applied;
    private final int maxRecursiveDelete;

    /** @param maxRecursiveDelete the most descendants a recursive delete deletes; more is the bulk delete command's */
    RecursiveDelete(Documents documents, ReadPolicy policy, DocumentsTopic topic, AppliedWrites applied,
            int maxRecursiveDelete) {
        this.documents = documents;
        this.policy = policy;
        this.topic = topic;
        this.applied = applied;
        this.maxRecursiveDelete = maxRecursiveDelete;
    }

    /** Deletes the live descendants of {@code folderId}, looked for in {@code around} (its repository first). */
    void descendants(Caller caller, String repository, List<String> around, String folderId) {
        // One count, stopped past the cap, before any page: a folder too large costs a request no more than that.
        long descendants = 0;
        for (String lookIn : around) {
            descendants += documents.collection(lookIn).countDocuments(Filters.eq(ANCESTOR_IDS, folderId),
                    new CountOptions().limit(maxRecursiveDelete + 1));
        }
        if (descendants > maxRecursiveDelete) {
            throw folderTooLarge(repository);
        }
        // Depth to the repositories and ids of its descendants, deepest first.
        TreeMap<Integer, Map<String, List<String>>> levels = new TreeMap<>(Comparator.reverseOrder());
        int count = 0;
        for (String lookIn : around) {
            String after = null;
            while (true) {
                List<Document> page = documents.collection(lookIn)
                        .find(after == null ? Filters.eq(ANCESTOR_IDS, folderId)
                                : Filters.and(Filters.eq(ANCESTOR_IDS, folderId), Filters.gt(KEY, after)))
                        .projection(Projections.include(KEY, DELETED, ANCESTOR_IDS,
                                DocumentFields.holdersOf(Permission.WRITE)))
                        .sort(new Document(KEY, 1)).limit(DESCENDANTS_PAGE).into(new ArrayList<>());
                for (Document descendant : page) {
                    if (!Documents.live(descendant)) {
                        continue;
                    }
                    if (!policy.holds(caller, descendant, Permission.WRITE)) {
                        // Neither named nor counted: the caller may not even read it.
                        LOG.info("recursive delete of '{}' by '{}' refused at a descendant it may not write", folderId,
                                caller.name());
                        throw new ApiException(403, "forbidden", RECURSIVE, "'" + caller.name()
                                + "' may not delete everything under '" + folderId + "': nothing was deleted");
                    }
                    if (++count > maxRecursiveDelete) {
                        throw folderTooLarge(repository);
                    }
                    levels.computeIfAbsent(descendant.getList(ANCESTOR_IDS, String.class).size(), depth -> new HashMap<>())
                            .computeIfAbsent(lookIn, where -> new ArrayList<>()).add(descendant.getString(KEY));
                }
                if (page.size() < DESCENDANTS_PAGE) {
                    break;
                }
                after = page.get(page.size() - 1).getString(KEY);
            }
        }
        for (Map<String, List<String>> level : levels.values()) {
            List<DocumentEvent> tombstones = new ArrayList<>();
            level.forEach((lookIn, ids) -> {
                for (int from = 0; from < ids.size(); from += DESCENDANTS_PAGE) {
                    documents.collection(lookIn).find(Filters.in(KEY, ids.subList(from,
                            Math.min(ids.size(), from + DESCENDANTS_PAGE)))).forEach(descendant -> {
                                if (Documents.live(descendant)) {
                                    tombstones.add(topic.event(descendant, Operation.DELETE));
                                }
                            });
                }
            });
            topic.append(tombstones);
            int pending = applied.awaitAll(tombstones);
            if (pending > 0) {
                throw new ApiException(504, "timeout", RECURSIVE, pending + " of the "
                        + tombstones.size() + " deletes of a level under '" + folderId + "' were not visible in MongoDB "
                        + "within " + applied.timeout() + "; '" + folderId + "' is not deleted: repeat the request once "
                        + "the import job caught up");
            }
        }
    }

    private ApiException folderTooLarge(String repository) {
        return new ApiException(413, "folder_too_large", RECURSIVE, "a recursive delete deletes at "
                + "most " + maxRecursiveDelete + " documents: delete a larger folder with the bulk delete command (POST "
                + "/api/v1/" + repository + "/bulk, bin/volumizer bulk delete); nothing was deleted");
    }
}
