package io.volumizer.generators.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.Customer;

/**
 * Writes an account opening letter as a minimal WordprocessingML package (the three parts OOXML requires), which
 * Word, LibreOffice and Apache POI open. Entries are stored uncompressed with a fixed timestamp, so the bytes do
 * not depend on the machine's zlib or time zone.
 */
public final class OpeningLetterDocx {

    private static final DateTimeFormatter LETTER_DATE = DateTimeFormatter.ofPattern("MMMM d, uuuu", Locale.US);
    private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);
    private static final String CONTENT_TYPES = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
            + "<Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument"
            + ".wordprocessingml.document.main+xml\"/></Types>";
    private static final String RELATIONSHIPS = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships"
            + "/officeDocument\" Target=\"word/document.xml\"/></Relationships>";

    private OpeningLetterDocx() {
    }

    /** The letter's paragraphs; the first one is the bank's name, in bold. */
    public static List<String> paragraphs(Account account) {
        Customer customer = account.customer();
        List<String> paragraphs = new ArrayList<>();
        paragraphs.add(StatementLayout.BANK_NAME);
        paragraphs.add(account.opened().format(LETTER_DATE));
        paragraphs.add(customer.fullName());
        paragraphs.add(customer.street());
        paragraphs.add(customer.city() + ", " + customer.stateCode() + " " + customer.zip());
        paragraphs.add("Dear " + (customer.female() ? "Ms. " : "Mr. ") + customer.lastName() + ",");
        paragraphs.add("We are pleased to confirm that your " + account.type().toLowerCase(Locale.ROOT)
                + " account number " + account.number() + " was opened on " + account.opened().format(LETTER_DATE)
                + ". Your customer number is " + customer.number() + ". Statements will be issued monthly in "
                + account.currency() + ".");
        paragraphs.add("Please keep this letter for your records and contact us at any branch if any of the details "
                + "above is not correct.");
        paragraphs.add("Sincerely,");
        paragraphs.add("Customer Relations, " + StatementLayout.BANK_NAME);
        return paragraphs;
    }

    public static byte[] render(Account account) {
        StringBuilder document = new StringBuilder(4096)
                .append("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n")
                .append("<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>");
        boolean first = true;
        for (String paragraph : paragraphs(account)) {
            document.append("<w:p><w:r>").append(first ? "<w:rPr><w:b/><w:sz w:val=\"32\"/></w:rPr>" : "")
                    .append("<w:t xml:space=\"preserve\">");
            escapeXml(paragraph, document);
            document.append("</w:t></w:r></w:p>");
            first = false;
        }
        document.append("<w:sectPr><w:pgSz w:w=\"12240\" w:h=\"15840\"/></w:sectPr></w:body></w:document>");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream(6144);
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            stored(zip, "[Content_Types].xml", CONTENT_TYPES);
            stored(zip, "_rels/.rels", RELATIONSHIPS);
            stored(zip, "word/document.xml", document.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a letter in memory", e);
        }
        return bytes.toByteArray();
    }

    private static void stored(ZipOutputStream zip, String name, String text) throws IOException {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(data);
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(data.length);
        entry.setCompressedSize(data.length);
        entry.setCrc(crc.getValue());
        entry.setTimeLocal(ENTRY_TIME);
        zip.putNextEntry(entry);
        zip.write(data);
        zip.closeEntry();
    }

    private static void escapeXml(String text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                default -> out.append(c);
            }
        }
    }
}
