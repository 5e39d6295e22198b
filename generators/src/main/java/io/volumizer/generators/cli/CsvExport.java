package io.volumizer.generators.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.generators.BankGenerator;
import io.volumizer.schemas.event.BlobRef;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * The flat CSV export (RFC 4180, UTF-8, header row), one document per row; typed properties as one JSON object
 * column. It is the input format of the CSV import job.
 */
public final class CsvExport {

    public static final String[] HEADER = {"index", "operation", "repository", "id", "parentId", "type", "name", "title",
        "created", "modified", "version", "blobKey", "blobMimeType", "blobFilename", "properties"};
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Writer writer;

    public CsvExport(Writer writer) {
        this.writer = writer;
    }

    /** The row of the document at generator index {@code index}, in {@link #HEADER}'s order. */
    public static void row(CSVPrinter csv, long index, DocumentEvent document) throws IOException {
        BlobRef blob = document.getBlob();
        csv.printRecord(index, document.getOperation(), document.getRepository(), document.getId(),
                document.getParentId(), document.getType(), document.getName(), document.getTitle(),
                document.getCreated(), document.getModified(), document.getVersion(),
                blob == null ? null : blob.getKey(), blob == null ? null : blob.getMimeType(),
                blob == null ? null : blob.getFilename(), JSON.writeValueAsString(document.getProperties()));
    }

    /** The generator's documents into {@code file}, as {@code generate --format csv} writes them; the rows written. */
    public static long toFile(BankGenerator generator, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            long rows = new CsvExport(out).write(generator, new Progress(generator.indexSpace(), null));
            out.flush();
            return rows;
        }
    }

    long write(BankGenerator generator, Progress progress) throws IOException {
        long written = 0;
        CSVPrinter csv = CSVFormat.RFC4180.builder().setHeader(HEADER).build().print(writer);
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if (document != null) {
                row(csv, index, document);
                written++;
            }
            progress.at(index, written);
        }
        csv.flush();
        return written;
    }
}
