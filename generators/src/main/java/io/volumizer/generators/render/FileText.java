package io.volumizer.generators.render;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Writer;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
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

    /** All of the file's text: {@link #extract(byte[], String, int)} without a limit. */
    public static String extract(byte[] bytes, String mimeType) {
        return extract(bytes, mimeType, Integer.MAX_VALUE);
    }

    /**
     * The file's text, up to {@code maxChars} characters: a PDF's is read no further (a file whose pages expand to
     * gigabytes of text, a PDF bomb, costs no more than its first characters), a DOCX's is cut there (POI refuses
     * an entry that inflates beyond its zip-bomb ratio).
     *
     * @throws IllegalArgumentException when the type has no text ({@link #readable}) or the bytes are not a file of
     *                                  that type, naming why
     */
    public static String extract(byte[] bytes, String mimeType, int maxChars) {
        try {
            if (PDF.equals(mimeType)) {
                try (PDDocument document = Loader.loadPDF(bytes)) {
                    Bounded text = new Bounded(maxChars);
                    try {
                        new BoundedStripper(maxChars).writeText(document, text);
                    } catch (Bounded.Full | StopReading full) {
                        // the limit: what was read is the text
                    }
                    return text.toString();
                }
            }
            if (DOCX.equals(mimeType)) {
                try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(bytes));
                        XWPFWordExtractor extractor = new XWPFWordExtractor(document)) {
                    String text = extractor.getText();
                    return text.length() > maxChars ? text.substring(0, maxChars) : text;
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the text of a " + mimeType + " file: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no text is read from " + mimeType + " files");
    }

    /**
     * A text stripper that stops reading a page once it holds {@code maxChars} characters: it collects a page's
     * characters before it writes them, so a page of a billion characters would otherwise be read, and held, whole.
     */
    private static final class BoundedStripper extends PDFTextStripper {

        private final int maxChars;
        private long characters;

        BoundedStripper(int maxChars) {
            this.maxChars = maxChars;
        }

        @Override
        protected void processTextPosition(TextPosition text) {
            super.processTextPosition(text);
            characters += text.getUnicode() == null ? 0 : text.getUnicode().length();
            if (characters >= maxChars) {
                try {
                    writePage(); // what the page holds so far, into the bounded writer, which is then full
                } catch (IOException full) {
                    throw new StopReading(full);
                }
                throw new StopReading(new Bounded.Full());
            }
        }
    }

    /** Out of the stream engine, which passes on unchecked exceptions: the text read is what the writer holds. */
    private static final class StopReading extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StopReading(IOException cause) {
            super(cause);
        }
    }

    /** Text written up to a limit; past it, a write fails with {@link Full}, which stops the reader. */
    private static final class Bounded extends Writer {

        /** The limit reached: an {@link IOException}, which the text stripper passes on as it is. */
        static final class Full extends IOException {
            private static final long serialVersionUID = 1L;

            Full() {
                super("the text limit is reached");
            }
        }

        private final StringBuilder text = new StringBuilder();
        private final int maxChars;

        Bounded(int maxChars) {
            this.maxChars = maxChars;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            int room = maxChars - text.length();
            text.append(chars, offset, Math.min(room, length));
            if (length > room) {
                throw new Full();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
