package io.volumizer.benchmarks.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.volumizer.ops.results.Report;
import io.volumizer.generators.BlobKey;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.render.FileText;
import io.volumizer.generators.render.StatementPdf;
import io.volumizer.options.ResultsOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The statement PDFs' text as the index stage reads it ({@link FileText}, PDFBox) against an independent tool's,
 * poppler's {@code pdftotext}, on the same files: each file's words (split on white space) compared as multisets. A
 * word one side has and the other lacks is counted and the first of them shown. Writes {@code text-agreement.json}
 * and {@code text-agreement.md}. Speed is JMH's ({@code bench generators}: {@code statementPdfText}).
 */
@Command(name = "text-agreement-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compares the statement PDFs' text as the index stage reads it (PDFBox) with poppler's pdftotext, "
                + "word by word; writes text-agreement.json and text-agreement.md.",
        footer = {"%nExample:", "  bin/volumizer bench text"})
public final class TextAgreementBenchmark implements Callable<Integer> {

    private static final String PDF = BlobKey.Kind.STATEMENT.mimeType;
    private static final int DIFFERENCES_SHOWN = 10;

    @Option(names = "--files", defaultValue = "200", description = "Statement PDFs compared (default: ${DEFAULT-VALUE}).")
    int files;

    @Option(names = "--seed", defaultValue = "1", description = "The generator's seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--pdftotext", defaultValue = "pdftotext", description = "poppler's pdftotext (default: ${DEFAULT-VALUE}).")
    String pdftotext;

    @Mixin
    ResultsOptions results = new ResultsOptions(ResultsOptions.BENCHMARKS);

    /** One file's words on both sides. */
    record FileAgreement(String file, int pdfboxWords, int pdftotextWords, int common, List<String> onlyPdfbox,
            List<String> onlyPdftotext) {
    }

    @Override
    public Integer call() throws Exception {
        GeneratorSettings settings = GeneratorSettings.of(seed, Math.max(files, 1));
        BankModel model = new BankModel(settings);
        Path folder = Files.createTempDirectory("text-agreement");
        List<FileAgreement> compared = new ArrayList<>();
        String version = run(List.of(pdftotext, "-v"), true).lines().findFirst().orElse("pdftotext");
        for (int i = 0; i < files; i++) {
            // a customer each, a statement of each month of their first account in turn: a spread of operations
            byte[] pdf = StatementPdf.render(model.statement(model.account(model.customer(i), 0), i % settings.statementsPerAccount()));
            Path file = folder.resolve("statement-" + i + ".pdf");
            Files.write(file, pdf);
            compared.add(compare(file.getFileName().toString(), FileText.extract(pdf, PDF),
                    run(List.of(pdftotext, "-enc", "UTF-8", file.toString(), "-"), false)));
            Files.delete(file);
        }
        Files.delete(folder);
        write(compared, version);
        return 0;
    }

    static FileAgreement compare(String file, String pdfbox, String poppler) {
        Map<String, Integer> left = words(pdfbox);
        Map<String, Integer> right = words(poppler);
        int common = 0;
        for (Map.Entry<String, Integer> word : left.entrySet()) {
            common += Math.min(word.getValue(), right.getOrDefault(word.getKey(), 0));
        }
        return new FileAgreement(file, total(left), total(right), common, only(left, right), only(right, left));
    }

    private static Map<String, Integer> words(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Arrays.stream(text.strip().split("\\s+")).filter(word -> !word.isEmpty())
                .forEach(word -> counts.merge(word, 1, Integer::sum));
        return counts;
    }

    private static int total(Map<String, Integer> words) {
        return words.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Words of {@code side} beyond the other's count of them, the first few. */
    private static List<String> only(Map<String, Integer> side, Map<String, Integer> other) {
        List<String> missing = new ArrayList<>();
        side.forEach((word, count) -> {
            for (int extra = count - other.getOrDefault(word, 0); extra > 0 && missing.size() < DIFFERENCES_SHOWN; extra--) {
                missing.add(word);
            }
        });
        return missing;
    }

    private static String run(List<String> command, boolean stderr) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(stderr).start();
        } catch (IOException e) {
            throw new IllegalStateException(command.get(0) + " is not installed (poppler-utils): " + e.getMessage(), e);
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    private void write(List<FileAgreement> compared, String version) throws IOException {
        long pdfboxWords = compared.stream().mapToLong(FileAgreement::pdfboxWords).sum();
        long popplerWords = compared.stream().mapToLong(FileAgreement::pdftotextWords).sum();
        long common = compared.stream().mapToLong(FileAgreement::common).sum();
        long identical = compared.stream().filter(f -> f.onlyPdfbox().isEmpty() && f.onlyPdftotext().isEmpty()).count();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("files", compared.size());
        summary.put("seed", seed);
        summary.put("pdftotext", version);
        summary.put("filesWithTheSameWords", identical);
        summary.put("pdfboxWords", pdfboxWords);
        summary.put("pdftotextWords", popplerWords);
        summary.put("commonWords", common);
        summary.put("perFile", compared);
        StringBuilder md = new StringBuilder("# Statement text: PDFBox (the index stage) against pdftotext\n\n")
                .append(String.format(Locale.ROOT, "%d statement PDFs of seed %d (a customer each, months in turn), read by "
                        + "`FileText` (PDFBox) and by %s; each file's words (split on white space) compared as "
                        + "multisets.%n%n", compared.size(), seed, version))
                .append("| files with the same words | words, PDFBox | words, pdftotext | in common |\n|---:|---:|---:|---:|\n")
                .append(String.format(Locale.ROOT, "| %d / %d | %,d | %,d | %,d |%n", identical, compared.size(),
                        pdfboxWords, popplerWords, common));
        Map<String, Integer> differing = new HashMap<>();
        compared.forEach(f -> {
            f.onlyPdfbox().forEach(word -> differing.merge("PDFBox only: `" + word + "`", 1, Integer::sum));
            f.onlyPdftotext().forEach(word -> differing.merge("pdftotext only: `" + word + "`", 1, Integer::sum));
        });
        if (!differing.isEmpty()) {
            md.append("\nWords one side has and the other lacks (the first ").append(DIFFERENCES_SHOWN)
                    .append(" of each file, counted over the files):\n\n");
            differing.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(20)
                    .forEach(e -> md.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
        }
        Report.write(results.folder, "text-agreement", summary, md);
        System.out.print(md);
    }
}
