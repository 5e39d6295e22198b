package io.volumizer.generators.render;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.RandomAccessRead;
import org.apache.pdfbox.io.RandomAccessReadBuffer;
import org.apache.pdfbox.io.RandomAccessReadView;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.apache.poi.xwpf.extractor.XWPFWordExtractor;
import org.apache.poi.xwpf.usermodel.XWPFDocument;

import io.volumizer.generators.BlobKey;
import io.volumizer.schemas.event.BlobRef;

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

    /** Whether a document's file (null: it has none) is one text can be read from. */
    public static boolean readable(BlobRef blob) {
        return blob != null && readable(blob.getMimeType());
    }

    /** All of the file's text: {@link #extract(byte[], String, int, long)} without limits. */
    public static String extract(byte[] bytes, String mimeType) {
        return extract(bytes, mimeType, Integer.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * The file's text, up to {@code maxChars} characters, read within {@code maxMemory} bytes allocated. A PDF's
     * text is read no further than the limit (a file whose pages expand to gigabytes of text, a PDF bomb, costs no
     * more than its first characters), a DOCX's is cut there (POI refuses an entry that inflates beyond its zip-bomb
     * ratio). The memory is checked as the parser reads the file's bytes ({@link AllocationBudget}): PDFBox decodes a
     * stream (a page's content, a font, its ToUnicode map) whole, so one that inflates to gigabytes would be held
     * whole; it is stopped at the budget as it is decoded. A stream of two filters is decoded through PDFBox's
     * memory after its first, so it is checked after its first filter only (PDFBox drops a filter repeated).
     *
     * @throws IllegalArgumentException when the type has no text ({@link #readable}), the bytes are not a file of
     *                                  that type, or reading them needs more memory, naming why
     */
    public static String extract(byte[] bytes, String mimeType, int maxChars, long maxMemory) {
        if (!readable(mimeType)) {
            throw new IllegalArgumentException("no text is read from " + mimeType + " files");
        }
        AllocationBudget budget = new AllocationBudget(maxMemory);
        try {
            String text = read(bytes, mimeType, maxChars, budget);
            budget.check(); // a parser that caught the budget's failure and read on
            return text;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the text of a " + mimeType + " file: " + e.getMessage(), e);
        }
    }

    /** The text of a {@link #readable} file: a PDF's, or else a DOCX's. */
    private static String read(byte[] bytes, String mimeType, int maxChars, AllocationBudget budget) throws IOException {
        if (PDF.equals(mimeType)) {
            try (PDDocument document = Loader.loadPDF(budget.checking(new RandomAccessReadBuffer(bytes)))) {
                document.setResourceCache(new SharedFonts());
                Bounded text = new Bounded(maxChars);
                try {
                    new BoundedStripper(maxChars, budget).writeText(document, text);
                } catch (Bounded.Full | StopReading full) {
                    // the limit: what was read is the text
                }
                return text.toString();
            }
        }
        try (XWPFDocument document = new XWPFDocument(budget.checking(new ByteArrayInputStream(bytes)));
                XWPFWordExtractor extractor = new XWPFWordExtractor(document)) {
            String text = extractor.getText();
            return text.length() > maxChars ? text.substring(0, maxChars) : text;
        }
    }

    /**
     * A text stripper that stops reading a page once it holds {@code maxChars} characters: it collects a page's
     * characters before it writes them, so a page of a billion characters would otherwise be read, and held, whole;
     * each character placed is a step of the memory budget, for what it allocates. It keeps a glyph drawn twice over
     * itself (a fake bold) twice, as Apache Tika's PDF parser does by default: PDFBox's check for such duplicates
     * looks every glyph up in sorted maps of the page's glyphs, and cost a third of the statements' reading (JFR).
     */
    private static final class BoundedStripper extends PDFTextStripper {

        private final int maxChars;
        private final AllocationBudget budget;
        private long characters;

        BoundedStripper(int maxChars, AllocationBudget budget) {
            this.maxChars = maxChars;
            this.budget = budget;
            setSuppressDuplicateOverlappingText(false);
        }

        @Override
        public void processPage(PDPage page) throws IOException {
            super.processPage(new BufferedContents(page));
        }

        /** PDFBox's, compiled once: a stripper compiles its own for each file (JFR: a sixtieth of the reading). */
        @Override
        protected List<Pattern> getListItemPatterns() {
            return ListItemPatterns.COMPILED;
        }

        @Override
        protected void processTextPosition(TextPosition text) {
            super.processTextPosition(text);
            budget.step();
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

    /** The list-item patterns PDFBox's text stripper compiles by default, which are immutable and thread-safe. */
    private static final class ListItemPatterns extends PDFTextStripper {
        static final List<Pattern> COMPILED = List.copyOf(new ListItemPatterns().getListItemPatterns());
    }

    /**
     * A page whose content the stream parser reads from one array in memory ({@link ContentBytes}): PDFBox parses a
     * content stream that is not compressed through a view of the file, which repositions the file before every byte
     * it reads (a third of the statements' reading time, JFR), and a compressed one from the buffer it decodes into.
     * The copy costs the content's length once: the file's bytes, or what was decoded within the budget, bound it.
     * Its crop box is read once: the text engine asks for its size at every glyph, which read the box's array of
     * numbers each time (a tenth of the statements' reading, JFR).
     */
    private static final class BufferedContents extends PDPage {

        private final PDPage page;

        BufferedContents(PDPage page) {
            super(page.getCOSObject());
            this.page = page;
        }

        @Override
        public PDResources getResources() {
            return page.getResources(); // with the document's cache of fonts
        }

        @Override
        public PDRectangle getCropBox() {
            return new FixedBox(page.getCropBox());
        }

        @Override
        public RandomAccessRead getContentsForStreamParsing() throws IOException {
            try (InputStream contents = page.getContents()) {
                return new ContentBytes(contents.readAllBytes());
            }
        }
    }

    /**
     * A page's content in one array, as the stream parser reads it: it peeks at a byte and steps back before most of
     * what it reads, which PDFBox's buffer does by repositioning itself (a twentieth of the statements' reading, JFR);
     * here both are an index's move.
     */
    static final class ContentBytes implements RandomAccessRead {

        private final byte[] bytes;
        private int position;
        private boolean closed;

        ContentBytes(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() throws IOException {
            checkOpen();
            return position < bytes.length ? bytes[position++] & 0xff : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            checkOpen();
            if (position >= bytes.length) {
                return -1;
            }
            int count = Math.min(length, bytes.length - position);
            System.arraycopy(bytes, position, into, offset, count);
            position += count;
            return count;
        }

        @Override
        public int peek() throws IOException {
            checkOpen();
            return position < bytes.length ? bytes[position] & 0xff : -1;
        }

        @Override
        public void rewind(int count) throws IOException {
            seek(position - count);
        }

        @Override
        public long getPosition() throws IOException {
            checkOpen();
            return position;
        }

        @Override
        public void seek(long to) throws IOException {
            checkOpen();
            if (to < 0) {
                throw new IOException("invalid position " + to);
            }
            position = (int) Math.min(to, bytes.length);
        }

        @Override
        public long length() throws IOException {
            checkOpen();
            return bytes.length;
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public boolean isEOF() throws IOException {
            checkOpen();
            return position >= bytes.length;
        }

        @Override
        public RandomAccessReadView createView(long start, long length) throws IOException {
            checkOpen();
            return new RandomAccessReadView(new ContentBytes(bytes), start, length, true); // reads leave this one as it is
        }

        @Override
        public void close() {
            closed = true;
        }

        private void checkOpen() throws IOException {
            if (closed) {
                throw new IOException("the page's content is closed");
            }
        }
    }

    /** A rectangle whose corners are read once, from a box that does not change while a page is read. */
    private static final class FixedBox extends PDRectangle {

        private final float lowerLeftX;
        private final float lowerLeftY;
        private final float upperRightX;
        private final float upperRightY;

        FixedBox(PDRectangle box) {
            super(box.getCOSArray());
            lowerLeftX = box.getLowerLeftX();
            lowerLeftY = box.getLowerLeftY();
            upperRightX = box.getUpperRightX();
            upperRightY = box.getUpperRightY();
        }

        @Override
        public float getLowerLeftX() {
            return lowerLeftX;
        }

        @Override
        public float getLowerLeftY() {
            return lowerLeftY;
        }

        @Override
        public float getUpperRightX() {
            return upperRightX;
        }

        @Override
        public float getUpperRightY() {
            return upperRightY;
        }

        @Override
        public float getWidth() {
            return upperRightX - lowerLeftX;
        }

        @Override
        public float getHeight() {
            return upperRightY - lowerLeftY;
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
