package io.volumizer.generators.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.imageio.ImageIO;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.junit.jupiter.api.Test;

import io.volumizer.generators.BlobKey;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.generators.model.Statement;

class RenditionsTest {

    private static final GeneratorSettings SETTINGS = GeneratorSettings.of(42, 1000);
    private final BankModel model = new BankModel(SETTINGS);

    /** A customer whose name has an accent, to check the encodings. */
    private Customer accentedCustomer() {
        for (long c = 0; ; c++) {
            Customer customer = model.customer(c);
            if (!customer.fullName().matches("[A-Za-z' .-]*")) {
                return customer;
            }
        }
    }

    @Test
    void statementPdfIsValidAndItsTextHoldsNameAddressAndBalances() throws Exception {
        Customer customer = accentedCustomer();
        Statement statement = model.statement(model.account(customer, 0), 17);

        byte[] pdf = StatementPdf.render(statement);

        try (PDDocument document = Loader.loadPDF(pdf)) {
            assertThat(document.getNumberOfPages()).isEqualTo(1);
            String text = FileText.extract(pdf, BlobKey.Kind.STATEMENT.mimeType);
            assertThat(text).contains(customer.fullName(), customer.street(), customer.zip(),
                    statement.account().number(), statement.period().toString(),
                    Money.format(statement.openingCents()), Money.format(statement.closingCents()),
                    statement.operations().get(3).counterparty());
        }
    }

    @Test
    void letterOpensInPoiWithNameAndAccount() throws Exception {
        Customer customer = accentedCustomer();
        Account account = model.account(customer, 0);

        byte[] docx = OpeningLetterDocx.render(account);

        try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(docx))) {
            assertThat(FileText.extract(docx, BlobKey.Kind.LETTER.mimeType))
                    .contains(customer.fullName(), account.number(), customer.lastName());
            assertThat(document.getParagraphs()).hasSize(OpeningLetterDocx.paragraphs(account).size());
        }
    }

    @Test
    void fileTextRefusesWhatItCannotRead() {
        assertThat(FileText.readable(BlobKey.Kind.IDCARD.mimeType)).isFalse();
        assertThatThrownBy(() -> FileText.extract(new byte[] {1, 2, 3}, BlobKey.Kind.IDCARD.mimeType))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no text is read from image/jpeg");
        assertThatThrownBy(() -> FileText.extract("not a pdf".getBytes(), BlobKey.Kind.STATEMENT.mimeType))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("cannot read the text of a application/pdf");
    }

    @Test
    void idCardDecodesAsAnImageOfAFewKilobytes() throws Exception {
        byte[] jpeg = IdCardJpeg.render(model.customer(3), SETTINGS.seed());

        BufferedImage image = ImageIO.read(new ByteArrayInputStream(jpeg));

        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(428);
        assertThat(jpeg.length).isBetween(3_000, 80_000);
    }

    @Test
    void everyKindRendersIdenticallyFromItsKey() throws Exception {
        for (BlobKey.Kind kind : BlobKey.Kind.values()) {
            BlobKey key = new BlobKey(SETTINGS, kind, 5, 0, 59);
            BlobKey parsed = BlobKey.parse(key.format(), "bank");

            byte[] first = Renditions.render(key);
            byte[] second = Renditions.render(parsed);

            assertThat(parsed.format()).isEqualTo(key.format());
            assertThat(sha256(second)).as(kind.name()).isEqualTo(sha256(first));
        }
    }

    @Test
    void blobsChangeWithTheSeed() throws Exception {
        BlobKey a = new BlobKey(SETTINGS, BlobKey.Kind.STATEMENT, 5, 0, 3);
        BlobKey b = new BlobKey(GeneratorSettings.of(43, 1000), BlobKey.Kind.STATEMENT, 5, 0, 3);
        assertThat(sha256(Renditions.render(a))).isNotEqualTo(sha256(Renditions.render(b)));
    }

    @Test
    void malformedKeysAreRejectedWithTheReason() {
        assertThatThrownBy(() -> BlobKey.parse("s3://bucket/x", "bank")).hasMessageContaining("not a generated blob key");
        assertThatThrownBy(() -> BlobKey.parse("gen/v1/1/60/2025-12/2.0/statement/5", "bank"))
                .hasMessageContaining("malformed blob key");
        assertThatThrownBy(() -> Renditions.render(new BlobKey(SETTINGS, BlobKey.Kind.STATEMENT, 5, 0, 60)))
                .hasMessageContaining("no statement 60");
    }

    @Test
    void moneyIsFormattedWithGroupsAndCents() {
        assertThat(Money.format(0)).isEqualTo("0.00");
        assertThat(Money.format(5)).isEqualTo("0.05");
        assertThat(Money.format(-123456789)).isEqualTo("-1,234,567.89");
        assertThat(Money.format(100000)).isEqualTo("1,000.00");
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void aPdfBombsTextIsReadNoFurtherThanTheLimit() throws Exception {
        byte[] bomb = pdfBomb(20_000, "bomb ".repeat(100));
        assertThat(bomb.length).as("a small file of %,d characters of text", 20_000 * 500).isLessThan(500_000);

        String text = FileText.extract(bomb, BlobKey.Kind.STATEMENT.mimeType, 10_000, Long.MAX_VALUE);

        assertThat(text).hasSize(10_000).startsWith("bomb bomb");
    }

    @Test
    void aDocxsTextIsCutAtTheLimit() {
        byte[] docx = OpeningLetterDocx.render(model.account(accentedCustomer(), 0));

        assertThat(FileText.extract(docx, BlobKey.Kind.LETTER.mimeType, 20, Long.MAX_VALUE)).hasSize(20);
    }

    @Test
    void aFileThatInflatesBeyondItsMemoryBudgetIsStoppedThere() throws Exception {
        byte[] bomb = HostileFiles.inflatingPdf(128);
        assertThat((long) bomb.length).as("a small file").isLessThan(MIB);

        long before = allocatedByThisThread();
        FileText.extract(bomb, BlobKey.Kind.STATEMENT.mimeType, 100_000, Long.MAX_VALUE);
        assertThat(allocatedByThisThread() - before).as("without a budget, the whole map").isGreaterThan(128 * MIB);

        before = allocatedByThisThread();
        assertThatThrownBy(() -> FileText.extract(bomb, BlobKey.Kind.STATEMENT.mimeType, 100_000, 32 * MIB))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than 32 MiB of memory");
        assertThat(allocatedByThisThread() - before).as("stopped at its budget, not once decoded").isLessThan(48 * MIB);
    }

    @Test
    void realFilesAreReadWellWithinABudget() {
        Statement statement = model.statement(model.account(accentedCustomer(), 0), 17);
        byte[] pdf = StatementPdf.render(statement);
        byte[] docx = OpeningLetterDocx.render(statement.account());

        assertThat(FileText.extract(pdf, BlobKey.Kind.STATEMENT.mimeType, 100_000, 16 * MIB))
                .isEqualTo(FileText.extract(pdf, BlobKey.Kind.STATEMENT.mimeType));
        assertThat(FileText.extract(docx, BlobKey.Kind.LETTER.mimeType, 100_000, 16 * MIB))
                .isEqualTo(FileText.extract(docx, BlobKey.Kind.LETTER.mimeType));
    }

    private static final long MIB = 1024 * 1024;

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    /** One page whose content stream shows {@code lines} times {@code line}, compressed: a file far smaller than its text. */
    @Test
    void aPageOfSeveralContentStreamsIsReadWholeAndAGlyphDrawnTwiceCountsTwice() throws Exception {
        try (PDDocument document = new PDDocument(); var out = new java.io.ByteArrayOutputStream()) {
            var page = new org.apache.pdfbox.pdmodel.PDPage();
            document.addPage(page);
            var font = new org.apache.pdfbox.pdmodel.font.PDType1Font(
                    org.apache.pdfbox.pdmodel.font.Standard14Fonts.FontName.HELVETICA);
            try (var first = new org.apache.pdfbox.pdmodel.PDPageContentStream(document, page)) {
                first.beginText();
                first.setFont(font, 12);
                first.newLineAtOffset(72, 700);
                first.showText("Opening balance");
                first.endText();
            }
            // a second stream appended, compressed, and a word drawn twice over itself (a fake bold)
            try (var second = new org.apache.pdfbox.pdmodel.PDPageContentStream(document, page,
                    org.apache.pdfbox.pdmodel.PDPageContentStream.AppendMode.APPEND, true)) {
                for (float offset : new float[] {0, 0.3f}) {
                    second.beginText();
                    second.setFont(font, 12);
                    second.newLineAtOffset(72 + offset, 600);
                    second.showText("Closing");
                    second.endText();
                }
            }
            document.save(out);

            String text = FileText.extract(out.toByteArray(), BlobKey.Kind.STATEMENT.mimeType);

            assertThat(text.split("\\s+")).contains("Opening", "balance");
            assertThat(text.chars().filter(c -> c == 'C').count()).as("kept twice, as Tika keeps it: %s", text).isEqualTo(2);
        }
    }

    /**
     * Statements read one after the other on a thread share their fonts ({@link SharedFonts}), and each reads as it
     * does alone, on a thread of its own with fonts of its own.
     */
    @Test
    void filesReadWithSharedFontsReadAsEachReadsAlone() throws Exception {
        for (long c = 0; c < 20; c++) {
            byte[] pdf = StatementPdf.render(model.statement(model.account(model.customer(c), 0), (int) (c % 12) + 1));
            String shared = FileText.extract(pdf, BlobKey.Kind.STATEMENT.mimeType);
            String[] alone = new String[1];
            Thread fresh = new Thread(() -> alone[0] = FileText.extract(pdf, BlobKey.Kind.STATEMENT.mimeType));
            fresh.start();
            fresh.join();
            assertThat(shared).isEqualTo(alone[0]).isNotBlank();
        }
    }

    @Test
    void aFontIsSharedOnlyByAnEqualDefinitionWithoutStreams() {
        var helvetica = new org.apache.pdfbox.cos.COSDictionary();
        helvetica.setName(org.apache.pdfbox.cos.COSName.SUBTYPE, "Type1");
        helvetica.setName(org.apache.pdfbox.cos.COSName.BASE_FONT, "Helvetica");
        helvetica.setName(org.apache.pdfbox.cos.COSName.ENCODING, "WinAnsiEncoding");
        var same = new org.apache.pdfbox.cos.COSDictionary(helvetica);
        var otherEncoding = new org.apache.pdfbox.cos.COSDictionary(helvetica);
        otherEncoding.setName(org.apache.pdfbox.cos.COSName.ENCODING, "MacRomanEncoding");
        var embedded = new org.apache.pdfbox.cos.COSDictionary(helvetica);
        var descriptor = new org.apache.pdfbox.cos.COSDictionary();
        descriptor.setItem(org.apache.pdfbox.cos.COSName.FONT_FILE, new org.apache.pdfbox.cos.COSStream());
        embedded.setItem(org.apache.pdfbox.cos.COSName.FONT_DESC, descriptor);

        assertThat(SharedFonts.definition(helvetica)).isNotNull().isEqualTo(SharedFonts.definition(same))
                .isNotEqualTo(SharedFonts.definition(otherEncoding));
        assertThat(SharedFonts.definition(embedded)).as("a font program of its own").isNull();
        var widths = new org.apache.pdfbox.cos.COSArray();
        for (int i = 0; i < 1000; i++) {
            widths.add(org.apache.pdfbox.cos.COSInteger.get(500 + i));
        }
        var crafted = new org.apache.pdfbox.cos.COSDictionary(helvetica);
        var references = new org.apache.pdfbox.cos.COSArray();
        for (int i = 0; i < 100; i++) {
            references.add(widths); // the same large array a hundred times: a definition without end, not shared
        }
        crafted.setItem(org.apache.pdfbox.cos.COSName.WIDTHS, references);
        assertThat(SharedFonts.definition(crafted)).isNull();
    }

    /** A shared font's widths and Unicode, each code's kept once read, are PDFBox's own, whatever the glyph list. */
    @Test
    void aFontThatKnowsItsGlyphsAnswersAsPdfBoxDoes() throws Exception {
        var helvetica = new org.apache.pdfbox.cos.COSDictionary();
        helvetica.setName(org.apache.pdfbox.cos.COSName.SUBTYPE, "Type1");
        helvetica.setName(org.apache.pdfbox.cos.COSName.BASE_FONT, "Helvetica");
        helvetica.setName(org.apache.pdfbox.cos.COSName.ENCODING, "WinAnsiEncoding");
        var withWidths = new org.apache.pdfbox.cos.COSDictionary(helvetica);
        var widths = new org.apache.pdfbox.cos.COSArray();
        for (int i = 0; i < 64; i++) {
            widths.add(org.apache.pdfbox.cos.COSInteger.get(300 + 7 * i));
        }
        withWidths.setInt(org.apache.pdfbox.cos.COSName.FIRST_CHAR, 40);
        withWidths.setInt(org.apache.pdfbox.cos.COSName.LAST_CHAR, 103);
        withWidths.setItem(org.apache.pdfbox.cos.COSName.WIDTHS, widths);
        var glyphLists = java.util.List.of(org.apache.pdfbox.pdmodel.font.encoding.GlyphList.getAdobeGlyphList(),
                org.apache.pdfbox.pdmodel.font.encoding.GlyphList.getZapfDingbats());
        for (var dictionary : java.util.List.of(helvetica, withWidths)) {
            var plain = new org.apache.pdfbox.pdmodel.font.PDType1Font(dictionary);
            var known = SharedFonts.KnownGlyphs.of(new org.apache.pdfbox.pdmodel.font.PDType1Font(dictionary));
            assertThat(known).isInstanceOf(SharedFonts.KnownGlyphs.class);
            for (var glyphs : glyphLists) {
                for (int round = 0; round < 2; round++) { // read, then known
                    for (int code = -1; code <= 256; code++) {
                        assertThat(known.getWidth(code)).as("width of %d", code).isEqualTo(plain.getWidth(code));
                        assertThat(known.toUnicode(code, glyphs)).as("unicode of %d", code)
                                .isEqualTo(plain.toUnicode(code, glyphs));
                    }
                }
            }
        }
    }

    private static byte[] pdfBomb(int lines, String line) throws Exception {
        try (PDDocument document = new PDDocument(); var out = new java.io.ByteArrayOutputStream()) {
            var page = new org.apache.pdfbox.pdmodel.PDPage();
            document.addPage(page);
            try (var content = new org.apache.pdfbox.pdmodel.PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new org.apache.pdfbox.pdmodel.font.PDType1Font(
                        org.apache.pdfbox.pdmodel.font.Standard14Fonts.FontName.HELVETICA), 1);
                content.newLineAtOffset(10, 790);
                for (int i = 0; i < lines; i++) {
                    content.showText(line);
                    content.newLineAtOffset(0, -1);
                }
                content.endText();
            }
            document.save(out);
            return out.toByteArray();
        }
    }
}
