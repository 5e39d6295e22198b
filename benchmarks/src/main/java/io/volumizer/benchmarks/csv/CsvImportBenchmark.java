package io.volumizer.benchmarks.csv;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.LongSupplier;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.bson.Document;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;

import io.volumizer.harness.Counts;
import io.volumizer.ops.results.Report;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.cli.CsvExport;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.ops.runs.PipelineRunCommand;
import io.volumizer.ops.services.LocalServices;
import io.volumizer.ops.stores.Stores;
import io.volumizer.options.Options;
import io.volumizer.options.ResultsOptions;
import io.volumizer.options.pipeline.PipelineOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.codec.AvroCodec;
import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.registry.SchemaRegistryClient;
import io.volumizer.stores.DocumentFields;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The CSV import against the generate job, into the same stores in the same run: a run exported with the generator's
 * CSV export, then imported twice beside a running import-and-index, once generated (the generate job) into one
 * repository and once from the file (the CSV job) into another; each repository's documents are compared field by
 * field (ids, titles, properties, ancestry, blob references). Then a file whose rows are one in a hundred broken:
 * exactly those must be dead-lettered, with their lines. Writes {@code csv-import.json} and {@code csv-import.md}.
 */
@Command(name = "csv-import-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Imports a generated run's CSV export beside the same run generated and compares the two "
                + "repositories field by field, then checks that exactly the broken rows of a damaged file are "
                + "dead-lettered; writes csv-import.json and csv-import.md.",
        footer = {"%nExample:", "  bin/volumizer bench csv"})
public final class CsvImportBenchmark extends PipelineRunCommand {

    private static final List<String> LEAVES = List.of("Statement", "IdCard", "OpeningLetter");
    private static final List<String> COMPARED = List.of(DocumentFields.PARENT_ID, DocumentFields.TYPE, DocumentFields.NAME,
            DocumentFields.TITLE, DocumentFields.CREATED, DocumentFields.MODIFIED, DocumentFields.VERSION,
            DocumentFields.PROPERTIES, DocumentFields.ANCESTOR_IDS, DocumentFields.BLOB);
    private static final Duration IMPORTED = Duration.ofMinutes(40);

    @Mixin ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    @Option(names = "--broken-rows", defaultValue = "100000", description = "Rows of the export in the broken file, "
            + "one in a hundred of them broken (default: ${DEFAULT-VALUE}).")
    long brokenRows;

    @Option(names = "--files", defaultValue = LocalServices.STATE_FOLDER + "/csv-benchmark", description = "Where the "
            + "export and the broken file are written (default: ${DEFAULT-VALUE}).")
    Path files;

    /** How one import went: documents, the job's own rate and the rate until both stores held every document. */
    record Import(String how, String repository, long documents, double jobSeconds, double storedSeconds) {
        double jobRate() {
            return documents / jobSeconds;
        }

        double storedRate() {
            return documents / storedSeconds;
        }
    }

    @Override
    protected int run(GeneratorSettings settings) throws Exception {
        String generatedRepository = settings.repository();
        String csvRepository = generatedRepository + "-csv";
        String brokenRepository = generatedRepository + "-broken";
        Files.createDirectories(files);
        Path export = files.resolve("export.csv");
        Path broken = files.resolve("broken.csv");
        long started = System.nanoTime();
        long rows = CsvExport.toFile(new BankGenerator(settings), export);
        double exportSeconds = (System.nanoTime() - started) / 1e9;
        TreeSet<Long> brokenLines = breakRows(export, broken, brokenRows);
        System.out.printf(Locale.ROOT, "exported %,d rows in %.1f s; %,d of the first %,d rows broken%n", rows,
                exportSeconds, brokenLines.size(), brokenRows);

        FlinkSessionClient flink = session.client();
        String jarId = flink.uploadJar(session.jar);
        Map<String, Object> report = new LinkedHashMap<>();
        try (MongoClient mongo = MongoClients.create(pipeline.mongodb.uri)) {
            Import generated = importRun(flink, jarId, mongo, generatedRepository, rows, Step.GENERATE, generateArguments());
            Import csv = importRun(flink, jarId, mongo, csvRepository, rows, Step.IMPORT_CSV, Options.with(of(csvRepository),
                    "--repository", csvRepository, "--path", export.toAbsolutePath().toString()));
            List<String> differences = compare(mongo, settings, generatedRepository, csvRepository, rows);

            PipelineOptions brokenPipeline = of(brokenRepository);
            long good = brokenRows - brokenLines.size();
            Import brokenImport = importRun(flink, jarId, mongo, brokenRepository, good, Step.IMPORT_CSV,
                    Options.with(brokenPipeline, "--repository", brokenRepository, "--path", broken.toAbsolutePath().toString()));
            TreeSet<Long> deadLettered = new TreeSet<>();
            List<String> reasons = new ArrayList<>();
            try (Stores stores = new Stores(brokenPipeline)) {
                AvroCodec<DeadLetter> codec = AvroCodec.forSpecific(new SchemaRegistryClient(pipeline.registry.url),
                        "unused", DeadLetter.class);
                stores.readCommitted(brokenPipeline.deadletterTopic(), value -> {
                    DeadLetter letter = codec.decode(value);
                    deadLettered.add(letter.getLine());
                    if (reasons.size() < 3) {
                        reasons.add(letter.getReason());
                    }
                });
            }
            report.put("seed", settings.seed());
            report.put("customers", settings.customers());
            report.put("rows", rows);
            report.put("exportSeconds", exportSeconds);
            report.put("imports", List.of(generated, csv, brokenImport));
            report.put("csvJobRateOfGenerateJob", csv.jobRate() / generated.jobRate());
            report.put("csvStoredRateOfGenerated", csv.storedRate() / generated.storedRate());
            report.put("differences", differences);
            report.put("brokenRows", brokenLines.size());
            report.put("deadLettered", deadLettered.size());
            report.put("deadLetteredExactlyTheBrokenLines", deadLettered.equals(brokenLines));
            report.put("sampleReasons", reasons);
            write(report, generated, csv, brokenImport, differences, brokenLines, deadLettered, reasons);
            return differences.isEmpty() && deadLettered.equals(brokenLines) ? 0 : 1;
        }
    }

    private PipelineOptions of(String repository) {
        return Options.parseWithOverrides(new PipelineOptions(), Options.with(pipeline, "--topics-of", repository));
    }

    /**
     * The first {@code rows} rows of the export, one in a hundred broken (too many columns, a bad type, an
     * unparseable date in turn), each a leaf's: a broken folder's children would wait for it, not be its dead letter.
     * The lines broken.
     */
    private static TreeSet<Long> breakRows(Path export, Path broken, long rows) throws IOException {
        TreeSet<Long> lines = new TreeSet<>();
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).build();
        try (var in = Files.newBufferedReader(export, StandardCharsets.UTF_8);
                var parser = format.parse(in);
                BufferedWriter out = Files.newBufferedWriter(broken, StandardCharsets.UTF_8)) {
            out.write(String.join(",", CsvExport.HEADER) + "\r\n");
            boolean breakNextLeaf = false;
            long count = 0;
            for (var record : parser) {
                if (count++ == rows) {
                    break;
                }
                List<String> values = new ArrayList<>(record.toList());
                breakNextLeaf |= count % 100 == 0;
                if (breakNextLeaf && LEAVES.contains(record.get("type"))) {
                    breakNextLeaf = false;
                    switch (lines.size() % 3) {
                        case 0 -> values.add("extra");
                        case 1 -> values.set(5, "not a type");
                        default -> values.set(8, "last tuesday");
                    }
                    lines.add(count + 1); // the header is line 1, and each row one line: no value holds a line break
                }
                StringWriter row = new StringWriter();
                try (CSVPrinter printer = new CSVPrinter(row, CSVFormat.RFC4180)) {
                    printer.printRecord(values);
                }
                out.write(row.toString());
            }
        }
        return lines;
    }

    /** Generates (or reads) {@code documents} into the repository beside a running import; how fast each part went. */
    private Import importRun(FlinkSessionClient flink, String jarId, MongoClient mongo, String repository, long documents,
            Step step, List<String> arguments) throws Exception {
        PipelineOptions options = of(repository);
        try (Stores stores = new Stores(options)) {
            stores.reset(repository);
            String importJob = flink.run(jarId, Step.IMPORT_AND_INDEX, Options.with(options, "--group-id",
                    "bench-csv-" + repository + "-" + System.currentTimeMillis()), null);
            flink.awaitState(importJob, "RUNNING", Duration.ofMinutes(2));
            long started = System.nanoTime();
            String job = flink.run(jarId, step, arguments, null);
            flink.awaitState(job, "FINISHED", IMPORTED);
            double jobSeconds = (System.nanoTime() - started) / 1e9;
            MongoCollection<Document> collection = mongo.getDatabase(options.mongodb.database).getCollection(repository);
            await(repository + " in MongoDB", collection::estimatedDocumentCount, documents);
            await(repository + " in Elasticsearch", () -> Counts.orMinusOne(() -> stores.elasticsearchCount(repository)),
                    documents);
            double storedSeconds = (System.nanoTime() - started) / 1e9;
            flink.cancel(importJob, Duration.ofMinutes(1));
            Import done = new Import(step.id(), repository, documents, jobSeconds, storedSeconds);
            System.out.printf(Locale.ROOT, "%s into %s: %,d documents, job %.0f docs/s, stored %.0f docs/s%n", step.id(),
                    repository, documents, done.jobRate(), done.storedRate());
            return done;
        }
    }

    private static void await(String what, LongSupplier count, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + IMPORTED.toNanos();
        long now = count.getAsLong();
        while (now != expected && System.nanoTime() < deadline) {
            Thread.sleep(1000);
            now = count.getAsLong();
        }
        if (now != expected) {
            throw new IllegalStateException(what + ": " + now + " documents, not " + expected);
        }
    }

    /**
     * Every generated document looked up by id in both repositories, a hundred ids at a time (the stand-in collects a
     * whole collection's scan in memory): the fields that differ (at most 20).
     */
    private List<String> compare(MongoClient mongo, GeneratorSettings settings, String generated, String csv, long rows) {
        MongoCollection<Document> a = mongo.getDatabase(of(generated).mongodb.database).getCollection(generated);
        MongoCollection<Document> b = mongo.getDatabase(of(csv).mongodb.database).getCollection(csv);
        BankGenerator generator = new BankGenerator(settings);
        List<String> differences = new ArrayList<>();
        long compared = 0;
        List<String> ids = new ArrayList<>();
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if (document != null) {
                ids.add(document.getId());
            }
            if (ids.size() == 100 || (index == generator.indexSpace() - 1 && !ids.isEmpty())) {
                compared += compareBatch(a, b, ids, differences);
                ids.clear();
            }
        }
        if (compared != rows) {
            differences.add(0, "compared " + compared + " documents of " + rows);
        }
        return differences;
    }

    private static long compareBatch(MongoCollection<Document> generated, MongoCollection<Document> csv, List<String> ids,
            List<String> differences) {
        Map<Object, Document> fromCsv = byId(csv, ids);
        long compared = 0;
        for (Document document : byId(generated, ids).values()) {
            Object id = document.get(DocumentFields.KEY);
            Document twin = fromCsv.get(id);
            if (twin == null) {
                note(differences, id + ": missing from the CSV's repository");
                continue;
            }
            compared++;
            for (String field : COMPARED) {
                if (!Objects.equals(document.get(field), twin.get(field))) {
                    note(differences, id + "." + field + ": " + document.get(field) + " generated, " + twin.get(field)
                            + " from the CSV");
                }
            }
        }
        return compared;
    }

    private static Map<Object, Document> byId(MongoCollection<Document> collection, List<String> ids) {
        Map<Object, Document> byId = new LinkedHashMap<>();
        collection.find(Filters.in(DocumentFields.KEY, ids)).forEach(d -> byId.put(d.get(DocumentFields.KEY), d));
        return byId;
    }

    private static void note(List<String> differences, String difference) {
        if (differences.size() < 20) {
            differences.add(difference);
        }
    }

    private void write(Map<String, Object> report, Import generated, Import csv, Import broken, List<String> differences,
            TreeSet<Long> brokenLines, TreeSet<Long> deadLettered, List<String> reasons) throws IOException {
        StringBuilder md = new StringBuilder("# CSV import against the generate job\n\n")
                .append(String.format(Locale.ROOT, "Seed %s, %,d customers: %,d rows exported in %.1f s. Each import "
                        + "beside a running import-and-index (parallelism %d), into its own repository of the same stores, "
                        + "one after the other in this run.%n%n", report.get("seed"), (Long) report.get("customers"),
                        (Long) report.get("rows"), (Double) report.get("exportSeconds"), pipeline.parallelism))
                .append("| import | repository | documents | job docs/s | stored docs/s (both stores hold every one) |\n")
                .append("|---|---|---:|---:|---:|\n");
        for (Import run : List.of(generated, csv, broken)) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,.0f | %,.0f |%n", run.how(), run.repository(),
                    run.documents(), run.jobRate(), run.storedRate()));
        }
        md.append(String.format(Locale.ROOT, "%nThe CSV job against the generate job: %.2f× its own rate, %.2f× the rate "
                + "until both stores held every document.%n%n", csv.jobRate() / generated.jobRate(),
                csv.storedRate() / generated.storedRate()));
        md.append(differences.isEmpty() ? "Every document of the CSV's repository equals the generated one of the same "
                + "id: parent, type, name, title, created, modified, version, properties, ancestors, blob reference.\n"
                : "Differences (first 20):\n\n" + String.join("\n", differences.stream().map(d -> "- " + d).toList()) + "\n");
        md.append(String.format(Locale.ROOT, "%nBroken file: %,d rows broken of %,d; %,d dead-lettered; exactly the broken "
                + "lines: %s. Reasons, e.g.: %s%n", brokenLines.size(), brokenRows, deadLettered.size(),
                deadLettered.equals(brokenLines) ? "yes" : "NO", String.join("; ", reasons)));
        Report.write(results.folder, "csv-import", report, md);
        System.out.println(md);
    }
}
