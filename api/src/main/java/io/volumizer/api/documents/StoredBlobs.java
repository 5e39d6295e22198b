package io.volumizer.api.documents;

import java.util.Optional;

import org.bson.Document;

import io.volumizer.api.internal.ApiException;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.render.Renditions;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.blob.Uploads;

/** A document's binary: from its repository's blob store when it is there, else rendered again from its generator key. */
public final class StoredBlobs {

    private final RepositoryBlobStores.Opened stores;

    public StoredBlobs(RepositoryBlobStores.Opened stores) {
        this.stores = stores;
    }

    /**
     * @param blob the document's stored blob fields
     * @param documentKey the document's key, for the message when an uploaded blob is missing
     */
    public byte[] bytes(String repository, Document blob, String documentKey) {
        String key = blob.getString(DocumentFields.Blob.KEY);
        if (key.startsWith(Uploads.PREFIX)) {
            return stores.require(repository).get(key.substring(Uploads.PREFIX.length())).orElseThrow(() -> ApiException.notFound(
                    "blob " + key + " of document '" + documentKey + "' is not in the blob store"));
        }
        // Stored by an import with a blob store, or else rendered again: the same bytes either way.
        String digest = blob.getString(DocumentFields.Blob.DIGEST);
        return (digest == null ? Optional.<byte[]>empty() : stores.require(repository).get(digest))
                .orElseGet(() -> Renditions.render(BlobKey.parse(key, repository)));
    }
}
