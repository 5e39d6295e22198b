package io.volumizer.api.documents;

import io.volumizer.schemas.event.BlobRef;
import io.volumizer.stores.blob.BlobStore;

/** A file uploaded to a repository: stored in its blob store by digest, and the reference its document keeps. */
public final class Uploads {

    private Uploads() {
    }

    /**
     * Stores {@code bytes}, named {@code filename} (or null: named by its digest), in {@code store}: the reference a
     * document keeps, with the type the bytes have ({@link BlobTypes}) and a name that is no path.
     */
    public static BlobRef store(BlobStore store, byte[] bytes, String filename) {
        String digest = store.put(bytes);
        String name = filename == null || filename.isBlank() ? digest : filename.replaceAll("[/\\\\\\p{Cntrl}]", "_");
        return BlobRef.newBuilder().setKey(DocumentReads.UPLOADED_BLOB_PREFIX + digest)
                .setMimeType(BlobTypes.detect(bytes, name))
                .setFilename(name).setDigest(digest).setLength((long) bytes.length).build();
    }
}
