package io.volumizer.jobs.csv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.volumizer.jobs.csv.source.CsvRow;
import io.volumizer.sinks.metrics.StageMetrics;
import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.sinks.mongodb.MongoConnection;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.RepositoryBlobStores;
import io.volumizer.stores.blob.Uploads;
import io.volumizer.stores.mongodb.MongoDocumentStore;

/**
 * Turns each row into a document event ({@link CsvDocuments}): its parent found by path when the row names it so,
 * its blob file stored in the repository's blob store. A row that cannot become a document goes to the dead-letter
 * topic with its file, its line and why; the job goes on. A store that cannot be reached fails the task, which
 * restarts from its checkpoint: the row is not at fault.
 */
public final class ToDocuments extends ProcessFunction<CsvRow, DocumentEvent> {

    private static final long serialVersionUID = 1L;

    private final String repository;
    private final Instant importTime;
    private final String blobsFolder;
    private final MongoConnection mongo;
    private final RepositoryBlobStores blobStores;
    private transient CsvDocuments rows;
    private transient ParentPaths parents;
    private transient RepositoryBlobStores.Opened opened;
    private transient DeadLetters deadLetters;
    private transient Counter documents;

    /**
     * @param blobsFolder the folder rows' blob paths are relative to; null: rows name none
     */
    public ToDocuments(String repository, Instant importTime, String blobsFolder, MongoConnection mongo,
            RepositoryBlobStores blobStores) {
        this.repository = repository;
        this.importTime = importTime;
        this.blobsFolder = blobsFolder;
        this.mongo = mongo;
        this.blobStores = blobStores;
    }

    @Override
    public void open(OpenContext context) {
        rows = new CsvDocuments(repository, importTime);
        MongoDocumentStore store = mongo.open(getRuntimeContext());
        parents = new ParentPaths(store.collection(repository), repository);
        opened = blobStores.open();
        deadLetters = new DeadLetters(getRuntimeContext().getMetricGroup(), MetricNames.CSV_IMPORT);
        documents = StageMetrics.of(getRuntimeContext().getMetricGroup(), MetricNames.CSV_IMPORT).counter(MetricNames.GENERATED);
    }

    @Override
    public void processElement(CsvRow row, Context context, Collector<DocumentEvent> out) {
        try {
            if (row.text == null) {
                throw new InvalidRowException("a row longer than " + CsvRow.MAX_TEXT_BYTES + " bytes (an unclosed quote?)");
            }
            CsvDocuments.Parsed parsed = rows.parse(row);
            DocumentEvent.Builder document = parsed.document();
            parsed.parentPath().ifPresent(path -> document.setParentId(parents.idOf(path)));
            if (parsed.blobFile().isPresent()) {
                document.setBlob(Uploads.store(blobStore(), bytes(parsed.blobFile().get()),
                        Path.of(parsed.blobFile().get()).getFileName().toString()));
            }
            out.collect(document.build());
            documents.inc();
        } catch (InvalidRowException e) {
            context.output(DeadLetters.TAG, deadLetters.ofRow(ReasonClass.INVALID_ROW, row.file + ":" + row.line + ": "
                    + e.getMessage(), row.file, row.line, row.text == null ? new byte[0] : row.text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private BlobStore blobStore() throws InvalidRowException {
        Optional<BlobStore> store = opened.of(repository);
        if (store.isEmpty()) {
            throw new InvalidRowException("a blob in '" + CsvDocuments.FILE_COLUMN + "', but repository " + repository
                    + " has no blob store (--blob-store)");
        }
        return store.get();
    }

    /** The bytes of a blob file, inside the blobs folder only. */
    private byte[] bytes(String relative) throws InvalidRowException {
        if (blobsFolder == null) {
            throw new InvalidRowException("a blob in '" + CsvDocuments.FILE_COLUMN + "', but no --blobs folder to find '"
                    + relative + "' in");
        }
        Path root = Path.of(blobsFolder).toAbsolutePath().normalize();
        Path file = root.resolve(relative).normalize();
        if (!file.startsWith(root)) {
            throw new InvalidRowException("bad value of '" + CsvDocuments.FILE_COLUMN + "': '" + relative
                    + "' is outside the blobs folder");
        }
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new InvalidRowException("blob file '" + relative + "' not found in " + root);
        } catch (IOException e) {
            throw new IllegalStateException("blob file " + file + " could not be read", e);
        }
    }

    @Override
    public void close() {
        if (opened != null) {
            opened.close();
        }
        mongo.close();
    }
}
