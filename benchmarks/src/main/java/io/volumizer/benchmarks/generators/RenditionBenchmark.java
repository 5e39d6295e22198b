package io.volumizer.benchmarks.generators;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import io.volumizer.generators.BlobKey;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.generators.model.Statement;
import io.volumizer.generators.render.FileText;
import io.volumizer.generators.render.IdCardJpeg;
import io.volumizer.generators.render.OpeningLetterDocx;
import io.volumizer.generators.render.StatementLayout;
import io.volumizer.generators.render.StatementPdf;

/**
 * Renditions per second, each measured with its model computation included (a statement's operations, a
 * customer...), against the straightforward library way of producing the same page: PDFBox's content-stream API
 * for statements, POI's XWPFDocument for letters. Next to them, the reading of their text back (PDFBox, POI), as the
 * index stage does for a live repository's files.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RenditionBenchmark {

    /** Each thread renders its own sequence of customers' documents. */
    @State(Scope.Thread)
    public static class Content {
        final BankModel model = new BankModel(GeneratorSettings.of(1, 50_000_000));
        long customer = (Thread.currentThread().getId() * 1_000_003L) % 40_000_000;
        int statement;

        Account nextAccount() {
            return model.account(model.customer(customer++), 0);
        }

        Statement nextStatement() {
            statement = (statement + 1) % 60;
            return model.statement(model.account(model.customer(statement == 0 ? ++customer : customer), 0), statement);
        }

        Customer nextCustomer() {
            return model.customer(customer++);
        }
    }

    @Benchmark
    public byte[] statementPdf(Content content) {
        return StatementPdf.render(content.nextStatement());
    }

    @Benchmark
    public byte[] statementPdfWithPdfBoxBaseline(Content content) throws IOException {
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.LETTER);
            document.addPage(page);
            PDType1Font regular = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDType1Font bold = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
            try (PDPageContentStream stream = new PDPageContentStream(document, page)) {
                for (StatementLayout.TextRun run : StatementLayout.of(content.nextStatement())) {
                    stream.beginText();
                    stream.setFont(run.bold() ? bold : regular, run.size());
                    stream.newLineAtOffset(run.x(), run.y());
                    stream.showText(run.text());
                    stream.endText();
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
            document.save(out);
            return out.toByteArray();
        }
    }

    @Benchmark
    public byte[] openingLetterDocx(Content content) {
        return OpeningLetterDocx.render(content.nextAccount());
    }

    @Benchmark
    public byte[] openingLetterWithPoiBaseline(Content content) throws IOException {
        try (XWPFDocument document = new XWPFDocument()) {
            boolean first = true;
            for (String paragraph : OpeningLetterDocx.paragraphs(content.nextAccount())) {
                XWPFRun run = document.createParagraph().createRun();
                run.setBold(first);
                run.setText(paragraph);
                first = false;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(16384);
            document.write(out);
            return out.toByteArray();
        }
    }

    /** Each thread's rendered files, for the text the index stage reads of a live repository's files. */
    @State(Scope.Thread)
    public static class Files {
        private static final int COUNT = 64;
        final byte[][] statements = new byte[COUNT][];
        final byte[][] letters = new byte[COUNT][];
        int next;

        @Setup
        public void render() {
            Content content = new Content();
            for (int i = 0; i < COUNT; i++) {
                statements[i] = StatementPdf.render(content.nextStatement());
                letters[i] = OpeningLetterDocx.render(content.nextAccount());
            }
        }

        int next() {
            next = (next + 1) % COUNT;
            return next;
        }
    }

    @Benchmark
    public String statementPdfText(Files files) {
        return FileText.extract(files.statements[files.next()], BlobKey.Kind.STATEMENT.mimeType);
    }

    /** The straightforward library way of reading a PDF's text: PDFBox's text stripper with its defaults, no limits. */
    @Benchmark
    public String statementPdfTextWithPdfBoxDefaultsBaseline(Files files) throws IOException {
        try (PDDocument document = Loader.loadPDF(files.statements[files.next()])) {
            return new PDFTextStripper().getText(document);
        }
    }

    @Benchmark
    public String openingLetterDocxText(Files files) {
        return FileText.extract(files.letters[files.next()], BlobKey.Kind.LETTER.mimeType);
    }

    @Benchmark
    public byte[] idCardJpeg(Content content) {
        return IdCardJpeg.render(content.nextCustomer(), 1);
    }
}
