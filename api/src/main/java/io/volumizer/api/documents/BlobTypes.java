package io.volumizer.api.documents;

import java.util.Set;

import io.volumizer.generators.BlobKey;

/**
 * How a browser is let to open a blob: only the types a browser shows without running anything of the file's are
 * served inline; every other is an attachment. (What a stored file is: {@link io.volumizer.stores.blob.Uploads}.)
 */
final class BlobTypes {

    /** PDF, raster images and DOCX (the generator's statements, ID cards and letters among them); not SVG, which runs scripts. */
    private static final Set<String> SHOWN_INLINE = Set.of(BlobKey.Kind.STATEMENT.mimeType, "image/png",
            BlobKey.Kind.IDCARD.mimeType, "image/gif", "image/webp", BlobKey.Kind.LETTER.mimeType);

    private BlobTypes() {
    }

    /** The Content-Disposition of a blob of {@code mimeType} named {@code filename}. */
    static String disposition(String mimeType, String filename) {
        return (SHOWN_INLINE.contains(mimeType) ? "inline" : "attachment") + "; filename=\"" + filename.replace("\"", "") + "\"";
    }
}
