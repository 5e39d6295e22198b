package io.volumizer.api.documents;

import io.volumizer.stores.blob.Uploads;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An uploaded file's type is what its bytes are, whatever its name claims; only safe types are shown inline. */
class BlobTypesTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    private static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff, (byte) 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0};

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            %PDF-1.7 statement                                     | statement.pdf | application/pdf | inline
            %PDF-1.7 statement                                     | scan.html     | application/pdf | inline
            <html><body><script>alert(1)</script></body></html>    | scan.pdf      | text/html       | attachment
            <svg xmlns="http://www.w3.org/2000/svg"><script/></svg> | logo.png      | image/svg+xml   | attachment
            scanned letter, plain text                             | scan.txt      | text/plain      | attachment
            """)
    void theTypeIsTheBytesNotTheName(String content, String filename, String type, String disposition) {
        String detected = Uploads.detect(content.getBytes(StandardCharsets.UTF_8), filename);

        assertThat(detected).isEqualTo(type);
        assertThat(BlobTypes.disposition(detected, filename)).isEqualTo(disposition + "; filename=\"" + filename + "\"");
    }

    @Test
    void imagesAndDocxAreShownInline() throws IOException {
        assertThat(Uploads.detect(PNG, "a.txt")).isEqualTo("image/png");
        assertThat(Uploads.detect(JPEG, null)).isEqualTo("image/jpeg");
        ByteArrayOutputStream docx = new ByteArrayOutputStream();
        try (XWPFDocument letter = new XWPFDocument()) {
            letter.createParagraph().createRun().setText("Dear customer");
            letter.write(docx);
        }
        String letterType = Uploads.detect(docx.toByteArray(), "letter.docx");

        assertThat(letterType).isEqualTo("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
        for (String type : new String[] {"image/png", "image/jpeg", letterType}) {
            assertThat(BlobTypes.disposition(type, "f")).startsWith("inline;");
        }
        assertThat(Uploads.detect(docx.toByteArray(), "letter.html")).as("a zip named otherwise").doesNotStartWith("text/");
    }

    @Test
    void aQuoteInAFilenameCannotEndTheHeadersValue() {
        assertThat(BlobTypes.disposition("text/plain", "a\".txt")).isEqualTo("attachment; filename=\"a.txt\"");
    }
}
