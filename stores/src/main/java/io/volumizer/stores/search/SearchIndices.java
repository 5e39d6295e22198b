package io.volumizer.stores.search;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.volumizer.stores.Backoff;

/**
 * The repositories' indices of one naming ({@link IndexNames}): each repository's index is an alias over one
 * generation, a concrete index made from the repository template and the repository's {@link IndexLayout}. Readers
 * and the index stage use the alias; a reindex fills a new generation ({@link #createForReindex}) and moves the
 * alias to it in one atomic request ({@link #swap}), keeping the old one for a rollback until it is deleted.
 */
public interface SearchIndices {

    IndexNames names();

    /** Installs (or replaces) the repository template, which every index under the prefix is made from. */
    void installTemplate() throws SearchException;

    /**
     * A new generation of the repository's index for a reindex to fill, without the alias: from the template and the
     * repository's layout, with bulk-load settings on top (no refresh, no replicas, translog synced in the
     * background). {@link #finishLoad} puts the layout's settings back.
     *
     * @return its name
     */
    String createForReindex(String repository) throws SearchException;

    /**
     * Ends a generation's bulk load: refresh and translog as the layout (or else the template) has them, the replicas
     * of the repository's current generation (else the layout's, else the template's), then a refresh so that
     * everything written is searchable before the alias moves to it.
     */
    void finishLoad(String repository, String generation) throws SearchException;

    /** The generation the repository's alias points to, if it has one. */
    Optional<String> current(String repository) throws SearchException;

    /** Every generation of the repository's index, oldest first. */
    List<String> generations(String repository) throws SearchException;

    /**
     * Moves the repository's alias to {@code generation} in one request: searches answer from the old generation
     * until then, and from the new one after. The old generation is kept (a rollback is a swap back to it); a plain
     * index under the alias's name, as index stages made before repositories had generations, is deleted in the same
     * request, since an alias cannot take an index's name.
     *
     * @return the generation the alias left, if it was on another one
     */
    Optional<String> swap(String repository, String generation) throws SearchException;

    void deleteGeneration(String generation) throws SearchException;

    /**
     * Deletes every generation of the repository's index, and with them its alias; and a plain index of the alias's
     * name, as an index stage made them before repositories had generations.
     */
    void delete(String repository) throws SearchException;

    /** Deletes every index under the prefix: every repository's, every generation. The template stays. */
    void deleteAll() throws SearchException;

    /** Whether an index or an alias of this name exists. */
    boolean exists(String indexOrAlias) throws SearchException;

    /** The repositories that have an index (an alias under the prefix): what a search of all of them reads. */
    List<String> repositories() throws SearchException;

    /** Makes everything written to an index (or alias) so far searchable. */
    void refresh(String indexOrAlias) throws SearchException;

    /** The settings a generation was given (not the engine's defaults), by their flat names: index.refresh_interval. */
    Map<String, String> settings(String generation) throws SearchException;

    /**
     * Merges an index (or alias) into one segment per shard, as a finished load is, and returns its primary shards'
     * documents and store bytes: what a document costs on disk without replicas.
     */
    StoredSize mergedPrimarySize(String indexOrAlias) throws SearchException;

    /** Its primary shards' documents and store bytes as they are now, unmerged: for watching an index grow. */
    StoredSize primarySize(String indexOrAlias) throws SearchException;

    /** Documents and their bytes on disk. */
    record StoredSize(long documents, long bytes) {
    }

    /**
     * Writes documents into their repositories' indices (each made on first use), retrying what the cluster cannot
     * take now with {@code backoff}.
     */
    SearchWriter writer(Backoff backoff);
}
