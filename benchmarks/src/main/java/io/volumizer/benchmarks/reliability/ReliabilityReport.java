package io.volumizer.benchmarks.reliability;

import java.io.IOException;
import io.volumizer.harness.BadInput;
import io.volumizer.harness.Throughput;
import io.volumizer.ops.results.Report;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.volumizer.generators.render.FileText;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.options.steps.IndexSettings;

/** The reliability report: the rows as JSON, and their table with the fuzzing and rescaling sections. */
final class ReliabilityReport {

    private ReliabilityReport() {
    }

    static void write(ReliabilityBenchmark bench, List<Row> rows, GeneratorSettings settings, long documents) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("date", Report.date());
        json.put("machine", Report.machine());
        json.put("searchEngine", bench.searchService + " " + bench.searchVersion);
        json.put("documents", documents);
        json.put("customers", settings.customers());
        json.put("outageSeconds", bench.outage.toSeconds());
        json.put("faultAt", bench.faultAt);
        json.put("rows", rows);
        StringBuilder md = new StringBuilder("# Reliability under faults\n\n")
                .append(String.format(Locale.ROOT, "Measured %s on %s, the search engine %s: %,d generated documents per scenario (%d customers),"
                        + " each fault starting once %.0f%% of them are in MongoDB, outages of %d s. Every figure is read from"
                        + " the stores and topics through the official clients, document by document (never from job"
                        + " metrics): *missing* is a generated document not stored, *extra* one stored that nobody generated"
                        + " (or twice), *other version* one at a version it was not generated at. *Fault lasted* runs from the"
                        + " first harm until the service is back (a killed process restarted and healthy; for the JobManager,"
                        + " also the job recovered with bin/volumizer job recover), summed over the kills. *Recovery* runs from the end"
                        + " of the fault until the throughput (documents per second into MongoDB and into the search engine, polled"
                        + " twice a second) is back to half its rate over the 5 s before the fault, or every document is"
                        + " through; for three kills, the slowest. Target of every row: nothing missing, nothing extra, no"
                        + " good document dead-lettered, and for bad input exactly the injected records dead-lettered; into"
                        + " a live repository, every readable file's text (a statement's PDF, a letter's DOCX) indexed"
                        + " (fileTextIndexed) and stored in MongoDB, as *files' text* counts them.%n%n",
                        json.get("date"), json.get("machine"), json.get("searchEngine"), documents, settings.customers(),
                        bench.faultAt * 100, bench.outage.toSeconds()))
                .append("| scenario | jobs | documents | MongoDB (missing / extra / other version) | search engine (missing / extra / other version) | dead letters expected / unexpected | fault lasted | recovery | docs/s | met |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %,d%s | %,d (%d / %d / %d) | %,d (%d / %d / %d) | %d / %d%s | %s | %s | %s | %s |%n",
                    row.fault(), jobs(row), row.documents(),
                    row.badRecords() > 0 ? " + " + row.badRecords() + " bad" : "", row.mongodb().found(),
                    row.mongodb().missing(), row.mongodb().extra(), row.mongodb().otherVersion(), row.elasticsearch().found(),
                    row.elasticsearch().missing(), row.elasticsearch().extra(), row.elasticsearch().otherVersion(),
                    row.expectedDeadLetters(), row.unexpectedDeadLetters(),
                    row.deadLetterReasons().isEmpty() ? "" : " (" + row.deadLetterReasons().entrySet().stream()
                            .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")) + ")",
                    row.faultSeconds() == null ? "—" : String.format(Locale.ROOT, "%.0f s", row.faultSeconds()),
                    row.recovery(), row.docsPerSecond() == null ? "—" : String.format(Locale.ROOT, "%,.0f", row.docsPerSecond()),
                    row.passed() ? "yes" : "**NO**" + (row.error() == null ? "" : ": " + row.error())));
        }
        fuzzing(rows, md);
        rescaling(rows, md, bench.pipeline.maxParallelism);
        Report.write(bench.results.folder, bench.report, json, md);
    }

    /** The jobs of a row, and what they carried besides the documents. */
    private static String jobs(Row row) {
        String importedTopic = row.importedTopic() == null ? "" : String.format(Locale.ROOT,
                "imported topic: %,d records of %,d documents", row.importedTopic().records(), row.importedTopic().documents());
        if (row.jobs().equals(Topology.SEPARATE_JOBS.name())) {
            return "import, index (" + importedTopic + ")";
        }
        if (row.jobs().equals(Topology.CSV_IMPORT.name())) {
            return String.format(Locale.ROOT, "import-csv (the run's export, at %,.0f docs/s) beside import-and-index",
                    ReliabilityBenchmark.CSV_DOCS_PER_SECOND);
        }
        String fileTexts = row.fileTexts() == null ? "" : row.fileTexts().describe();
        if (row.jobs().equals(Topology.LIVE_FILE_TEXT.name())) {
            return "import-and-index, one live repository (" + fileTexts + ")";
        }
        if (row.jobs().equals(Topology.LIVE_TEXT_JOB.name())) {
            return String.format(Locale.ROOT, "import, index --file-text %s, index --file-text %s, one live repository "
                    + "(%s%s)", IndexSettings.FileText.none, IndexSettings.FileText.only, fileTexts,
                    importedTopic.isEmpty() ? "" : "; " + importedTopic);
        }
        return "import-and-index";
    }

    /**
     * With a fuzzed run among the rows: its records by kind, what became of them (dead letters by reason class, or
     * landed), and its throughput against the clean baseline of the same run.
     */
    private static void fuzzing(List<Row> rows, StringBuilder md) {
        Row fuzz = rows.stream().filter(row -> row.scenario().equals("fuzz")).findFirst().orElse(null);
        if (fuzz == null || fuzz.error() != null) {
            return;
        }
        md.append("\n## Fuzzing\n\n| kind | records | expected | dead letters by reason class |\n|---|---|---|---|\n");
        for (BadInput.Kind kind : BadInput.Kind.FUZZ) {
            Map<String, Long> reasons = fuzz.reasonsByKind().getOrDefault(kind.name(), Map.of());
            boolean bomb = kind == BadInput.Kind.PDF_BOMB;
            md.append(String.format(Locale.ROOT, "| %s | %,d | %s | %s%s |%n", kind.name().toLowerCase(Locale.ROOT)
                    .replace('_', ' '), fuzz.injectedKinds().getOrDefault(kind.name(), 0L),
                    kind.lands ? "lands in both stores" + (bomb ? ", its text given up" : "") : "dead letter",
                    reasons.isEmpty() ? "none" : reasons.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                            .collect(Collectors.joining(", ")),
                    bomb && fuzz.fileTextFailed() != null ? String.format(Locale.ROOT, "; files' text given up "
                            + "(fileTextFailed): %,d", fuzz.fileTextFailed()) : ""));
        }
        Map<String, Long> ofGoodDocuments = fuzz.reasonsByKind().getOrDefault("a good document", Map.of());
        md.append(String.format(Locale.ROOT, "%nGood documents (the hostile ones included) in both stores by id and "
                + "version: %,d of %,d in MongoDB, %,d in the search engine; good documents dead-lettered: %s; restarts caused "
                + "by records: 0 (the run fails otherwise).%n", fuzz.mongodb().found() - fuzz.mongodb().otherVersion(),
                fuzz.documents(), fuzz.elasticsearch().found() - fuzz.elasticsearch().otherVersion(),
                ofGoodDocuments.isEmpty() ? "none" : ofGoodDocuments));
        rows.stream().filter(row -> row.scenario().equals("clean") && row.docsPerSecond() != null).findFirst()
                .filter(clean -> fuzz.docsPerSecond() != null).ifPresent(clean -> md.append(String.format(Locale.ROOT,
                        "Throughput, submission to every good document in both stores: %,.0f docs/s fuzzed against "
                        + "%,.0f docs/s clean, measured in the same run: a ratio of %.2f.%n", fuzz.docsPerSecond(),
                        clean.docsPerSecond(), fuzz.docsPerSecond() / clean.docsPerSecond())));
    }

    /** With a rescaled run among the rows: its parallelism over time, each resume's time and each phase's rate. */
    private static void rescaling(List<Row> rows, StringBuilder md, int maxParallelism) {
        for (Row row : rows) {
            if (row.phases() == null) {
                continue;
            }
            md.append("\n## Rescaled from savepoints (").append(row.scenario()).append(")\n\n| parallelism | stop with a "
                    + "savepoint to running again | docs/s into MongoDB while at it | checkpoint state, median | "
                    + "checkpoint duration, median |\n|---|---|---|---|---|\n");
            for (Phase phase : row.phases()) {
                md.append(String.format(Locale.ROOT, "| %d | %s | %,.0f | %,d KiB | %,d ms |%n", phase.parallelism(),
                        phase.resumeSeconds() == null ? "(submitted)" : String.format(Locale.ROOT, "%.1f s",
                                phase.resumeSeconds()), phase.docsPerSecond(), phase.checkpointBytes() / 1024,
                        phase.checkpointMillis()));
            }
            md.append(String.format(Locale.ROOT, "%nThe jobs' max parallelism: %d. A TaskManager was killed once while at "
                    + "parallelism %d; the rates include its restart.%n", maxParallelism, Fault.RESCALED_UP));
        }
    }
}
