package io.volumizer.api.documents;

import java.util.Set;

import org.apache.tika.Tika;

import io.volumizer.generators.BlobKey;

/**
 * What an uploaded file is, and how a browser is let to open it. The type is detected from the bytes by Apache
 * Tika's magic numbers (the file's name only refines a type the bytes prove, such as DOCX within OOXML), never
 * taken from the client's claim: a page uploaded as "image/png" is stored as text/html. Only the types a
 * browser shows without running anything of the file's are served inline; every other is an attachment.
 */
final class BlobTypes {

    private static final Tika DETECTOR = new Tika();
    /** PDF, raster images and DOCX (the generator's statements, ID cards and letters among them); not SVG, which runs scripts. */
    private static final Set<String> SHOWN_INLINE = Set.of(BlobKey.Kind.STATEMENT.mimeType, "image/png",
            BlobKey.Kind.IDCARD.mimeType, "image/gif", "image/webp", BlobKey.Kind.LETTER.mimeType);

    private BlobTypes() {
    }

    /** The type of {@code bytes}, named {@code filename} (or null). */
    static String detect(byte[] bytes, String filename) {
        return DETECTOR.detect(bytes, filename);
    }

    /** The Content-Disposition of a blob of {@code mimeType} named {@code filename}. */
    static String disposition(String mimeType, String filename) {
        return (SHOWN_INLINE.contains(mimeType) ? "inline" : "attachment") + "; filename=\"" + filename.replace("\"", "") + "\"";
    }
}
