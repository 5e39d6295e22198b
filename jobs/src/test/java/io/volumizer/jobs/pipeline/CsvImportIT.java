package io.volumizer.jobs.pipeline;

import static io.volumizer.jobs.testing.StoreCounts.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.generators.cli.CsvExport;
import io.volumizer.jobs.csv.CsvDocuments;
import io.volumizer.jobs.testing.JobsJar;
import io.volumizer.ops.runs.ScopedRun;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.stores.DocumentFields;

/**
 * The CSV import on the real services: the generator's export of a run, one row in a hundred broken, read in small
 * splits into a new repository beside the running import; then a nuxeo-csv file that adds documents under folders
 * already there, by path, with a blob from a folder.
 */
class CsvImportIT {

    private static final int CUSTOMERS = 20;
    private static final int STATEMENTS = 12;
    private static final List<String> LEAVES = List.of("Statement", "IdCard", "OpeningLetter");

    @TempDir
    Path folder;

    private ScopedRun it;

    @BeforeEach
    void prepare() throws Exception {
        it = new ScopedRun(JobsJar.path());
    }

    @AfterEach
    void cleanUp() throws Exception {
        it.close();
    }

    @Test
    void importsTheGeneratorsExportAndDeadLettersEachBrokenRowWithItsLine() throws Exception {
        List<DocumentEvent> generated = it.generated(CUSTOMERS, STATEMENTS);
        Path csv = folder.resolve("export.csv");
        Map<Long, String> broken = new TreeMap<>(); // line -> how
        try (BufferedWriter out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            out.write(String.join(",", CsvExport.HEADER) + "\r\n");
            boolean breakNextLeaf = false;
            for (int i = 0; i < generated.size(); i++) {
                long line = i + 2;
                DocumentEvent document = generated.get(i);
                StringWriter row = new StringWriter();
                CsvExport.row(new CSVPrinter(row, CSVFormat.RFC4180), i, document);
                String text = row.toString();
                breakNextLeaf |= i % 100 == 99;
                // Only leaves: a broken folder's children would wait for it, not be this row's dead letter.
                if (breakNextLeaf && LEAVES.contains(document.getType())) {
                    breakNextLeaf = false;
                    String how = List.of("too many columns", "bad type", "unparseable value of 'created'").get(broken.size() % 3);
                    text = switch (how) {
                        case "too many columns" -> text.stripTrailing() + ",extra\r\n";
                        case "bad type" -> text.replace("," + document.getType() + ",", ",not a type,");
                        default -> text.replace(document.getCreated().toString(), "last tuesday");
                    };
                    broken.put(line, how);
                }
                out.write(text);
            }
        }
        long good = generated.size() - broken.size();
        assertThat(broken.size()).isGreaterThanOrEqualTo(generated.size() / 100 - 1);

        it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-csv-" + it.run, "--blob-store", ""), null);
        it.runToEnd(Step.IMPORT_CSV, it.args("--repository", it.repository, "--path", csv.toString(),
                "--split-size", "4096", "--blob-store", ""));

        try {
            await("good rows in MongoDB", it::mongoCount, good, Duration.ofMinutes(3));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; dead letters: " + reasons(), e);
        }
        await("good rows in Elasticsearch", it::elasticsearchCount, good, Duration.ofMinutes(2));
        await("dead letters", it::deadLetters, broken.size(), Duration.ofMinutes(1));
        Map<Long, String> deadLettered = new TreeMap<>();
        AvroCodec<DeadLetter> codec = AvroCodec.forSpecific(new SchemaRegistryClient(it.pipeline.registry.url), "unused",
                DeadLetter.class);
        it.stores.readCommitted(it.pipeline.deadletterTopic(), value -> {
            DeadLetter letter = codec.decode(value);
            assertThat(letter.getReasonClass()).isEqualTo(ReasonClass.INVALID_ROW);
            assertThat(letter.getFile()).isEqualTo(csv.toString());
            assertThat(letter.getReason()).startsWith(csv + ":" + letter.getLine() + ": ");
            deadLettered.put(letter.getLine(), letter.getReason());
        });
        assertThat(deadLettered.keySet()).isEqualTo(broken.keySet());
        broken.forEach((line, how) -> assertThat(deadLettered.get(line)).contains(how.equals("bad type") ? "bad type" : how));

        // What landed is what was generated, in the new repository.
        MongoCollection<Document> documents = it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(it.repository);
        for (DocumentEvent document : generated.subList(0, 50)) {
            Document stored = documents.find(Filters.eq(DocumentFields.KEY, document.getId())).first();
            assertThat(stored).as(document.getId()).isNotNull();
            assertThat(stored.getString(DocumentFields.TITLE)).isEqualTo(document.getTitle());
            assertThat(stored.getString(DocumentFields.PARENT_ID)).isEqualTo(document.getParentId());
        }
    }

    /** The first dead letters' stages and reasons, to say why documents are missing. */
    private List<String> reasons() {
        AvroCodec<DeadLetter> codec = AvroCodec.forSpecific(new SchemaRegistryClient(it.pipeline.registry.url), "unused",
                DeadLetter.class);
        List<String> reasons = new ArrayList<>();
        it.stores.readCommitted(it.pipeline.deadletterTopic(), value -> {
            if (reasons.size() < 5) {
                DeadLetter letter = codec.decode(value);
                reasons.add(letter.getStage() + ": " + letter.getReason());
            }
        });
        return reasons;
    }

    @Test
    void aNuxeoCsvAddsDocumentsUnderFoldersAlreadyThereByPath() throws Exception {
        Path blobStore = folder.resolve("store");
        Path blobs = Files.createDirectories(folder.resolve("blobs"));
        Files.writeString(blobs.resolve("note.txt"), "a note about the customer");
        it.generate(2, 2);
        String job = it.submit(Step.IMPORT_AND_INDEX, it.args("--group-id", "it-csv-" + it.run, "--blob-store",
                blobStore.toString()), null);
        long generated = it.generated(2, 2).size();
        await("generated documents", it::mongoCount, generated, Duration.ofMinutes(2));
        MongoCollection<Document> documents = it.mongo.getDatabase(it.pipeline.mongodb.database).getCollection(it.repository);
        Document customer = documents.find(Filters.eq(DocumentFields.TYPE, "CustomerFolder")).first();
        // A stored path begins with the root's name; a CSV's names are below the root.
        String customerPath = customer.getString(DocumentFields.PATH).replaceFirst("^/[^/]+/", "");

        Path csv = folder.resolve("notes.csv");
        try (CSVPrinter rows = new CSVPrinter(Files.newBufferedWriter(csv), CSVFormat.RFC4180)) {
            rows.printRecord("name", "type", "title", "dc:description", CsvDocuments.FILE_COLUMN);
            rows.printRecord("contracts", "Folder", "Contracts", "", "");
            rows.printRecord("contracts/c-1", "File", "", "the first contract", "");
            rows.printRecord(customerPath + "/note-1", "Note", "A note", "about the customer", "note.txt"); // a name has a comma
            rows.printRecord(customerPath + "/note-2", "Note", "A missing file", "", "missing.txt");
        }
        it.runToEnd(Step.IMPORT_CSV, it.args("--repository", it.repository, "--path", csv.toString(),
                "--blobs", blobs.toString(), "--blob-store", blobStore.toString()));

        try {
            await("documents with the CSV's", it::mongoCount, generated + 3, Duration.ofMinutes(2));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; dead letters: " + reasons(), e);
        }
        await("the missing blob's row dead-lettered", it::deadLetters, 1, Duration.ofMinutes(1));
        Document note = documents.find(Filters.eq(DocumentFields.NAME, "note-1")).first();
        assertThat(note.getString(DocumentFields.PARENT_ID)).isEqualTo(customer.getString(DocumentFields.KEY));
        assertThat(note.get(DocumentFields.BLOB, Document.class).getString(DocumentFields.Blob.MIME_TYPE)).isEqualTo("text/plain");
        Document contract = documents.find(Filters.eq(DocumentFields.NAME, "c-1")).first();
        assertThat(contract.getString(DocumentFields.PARENT_ID)).isEqualTo(CsvDocuments.pathId(it.repository, "contracts"));
        assertThat(contract.get(DocumentFields.PROPERTIES, Document.class).getString("dc:description")).isEqualTo("the first contract");
        List<String> ancestors = new ArrayList<>(note.getList(DocumentFields.ANCESTOR_IDS, String.class));
        assertThat(ancestors).endsWith(customer.getString(DocumentFields.KEY));
        it.adopt(job);
    }
}
