package io.volumizer.generators.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/** Files crafted against their readers, as an attacker would upload them: what the limits of {@link FileText} face. */
public final class HostileFiles {

    private static final int MIB = 1024 * 1024;

    private HostileFiles() {
    }

    /**
     * A valid one-page PDF of text in a font whose ToUnicode map is {@code decodedMib} MiB of spaces, compressed
     * about a thousand times: PDFBox reads a page's content as it decodes it, but a font's map whole.
     */
    public static byte[] inflatingPdf(int decodedMib) {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDPage page = new PDPage();
            document.addPage(page);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(font, 12);
                content.newLineAtOffset(10, 790);
                content.showText("bomb");
                content.endText();
            }
            COSStream map = document.getDocument().createCOSStream();
            try (OutputStream raw = map.createOutputStream(COSName.FLATE_DECODE)) {
                byte[] spaces = new byte[MIB];
                Arrays.fill(spaces, (byte) ' ');
                for (int written = 0; written < decodedMib; written++) {
                    raw.write(spaces);
                }
            }
            font.getCOSObject().setItem(COSName.TO_UNICODE, map);
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
