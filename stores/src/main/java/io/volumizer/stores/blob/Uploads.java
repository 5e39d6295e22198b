package io.volumizer.stores.blob;

import org.apache.tika.Tika;

import io.volumizer.schemas.event.BlobRef;

/**
 * A file stored into a repository's blob store by digest (uploaded to the API, or named by a CSV row), and the
 * reference its document keeps. Its type is detected from the bytes by Apache Tika's magic numbers (the file's name
 * only refines a type the bytes prove, such as DOCX within OOXML), never taken from a client's claim: a page
 * uploaded as "image/png" is stored as text/html.
 */
public final class Uploads {

    /** What a stored file's key begins with, before its digest (a generated blob's key says how to render it). */
    public static final String PREFIX = "sha256:";

    private static final Tika DETECTOR = new Tika();

    private Uploads() {
    }

    /**
     * Stores {@code bytes}, named {@code filename} (or null: named by its digest), in {@code store}: the reference a
     * document keeps, with the type the bytes have and a name that is no path.
     */
    public static BlobRef store(BlobStore store, byte[] bytes, String filename) {
        BlobRef ref = describe(bytes, filename);
        store.put(bytes);
        return ref;
    }

    /** The reference {@link #store} would return, computed without storing anything. */
    public static BlobRef describe(byte[] bytes, String filename) {
        String digest = BlobStore.sha256(bytes);
        String name = filename == null || filename.isBlank() ? digest : filename.replaceAll("[/\\\\\\p{Cntrl}]", "_");
        return BlobRef.newBuilder().setKey(PREFIX + digest).setMimeType(detect(bytes, name))
                .setFilename(name).setDigest(digest).setLength((long) bytes.length).build();
    }

    /** The type of {@code bytes}, named {@code filename} (or null). */
    public static String detect(byte[] bytes, String filename) {
        return DETECTOR.detect(bytes, filename);
    }
}
