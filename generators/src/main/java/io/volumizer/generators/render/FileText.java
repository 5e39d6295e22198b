package io.volumizer.generators.render;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.poi.xwpf.extractor.XWPFWordExtractor;
import org.apache.poi.xwpf.usermodel.XWPFDocument;

import io.volumizer.generators.BlobKey;

/**
 * The text inside a document's file, read from its bytes by the libraries that parse those formats (PDFBox for
 * PDF, POI for DOCX), so that what is searched is what a reader of the file sees, whoever wrote the file.
 */
public final class FileText {

    private static final String PDF = BlobKey.Kind.STATEMENT.mimeType;
    private static final String DOCX = BlobKey.Kind.LETTER.mimeType;

    private FileText() {
    }

    /** Whether text can be read from files of this type. */
    public static boolean readable(String mimeType) {
        return PDF.equals(mimeType) || DOCX.equals(mimeType);
    }

    /**
     * @throws IllegalArgumentException when the type has no text ({@link #readable}) or the bytes are not a file of
     *                                  that type, naming why
     */
    public static String extract(byte[] bytes, String mimeType) {
        try {
            if (PDF.equals(mimeType)) {
                try (PDDocument document = Loader.loadPDF(bytes)) {
                    return new PDFTextStripper().getText(document);
                }
            }
            if (DOCX.equals(mimeType)) {
                try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(bytes));
                        XWPFWordExtractor extractor = new XWPFWordExtractor(document)) {
                    return extractor.getText();
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the text of a " + mimeType + " file: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no text is read from " + mimeType + " files");
    }
}
