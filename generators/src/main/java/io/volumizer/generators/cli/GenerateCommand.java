package io.volumizer.generators.cli;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorOptions;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.internal.Rng;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/volumizer generate}: writes a seeded run to disk as CSV, an Avro data file, or rendition files. */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Generates a bank's content, reproducibly from a seed, into a folder.")
public final class GenerateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Output formats. */
    enum Format { csv, avro, files }

    @Mixin GeneratorOptions run = new GeneratorOptions();

    @Option(names = "--format", defaultValue = "csv", description = "csv, avro or files (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--out", required = true, description = "Output folder (created if missing).")
    Path out;

    @Option(names = "--no-progress", description = "Do not print the progress line.")
    boolean noProgress;

    @Override
    public Integer call() throws IOException {
        GeneratorSettings settings;
        try {
            settings = run.settings();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Files.createDirectories(out);
        BankGenerator generator = new BankGenerator(settings);
        Progress progress = new Progress(generator.indexSpace(), noProgress ? null : System.err);
        long written;
        switch (format) {
            case csv -> {
                try (BufferedWriter writer = Files.newBufferedWriter(out.resolve("documents.csv"), StandardCharsets.UTF_8)) {
                    written = new CsvExport(writer).write(generator, progress);
                }
            }
            case avro -> {
                try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(out.resolve("documents.avro")))) {
                    // A sync marker from the seed (Avro picks a random one) keeps the file identical across runs.
                    Rng rng = Rng.of(settings.seed(), 0xa7c0L);
                    written = new AvroExport(stream, rng.nextLong(), rng.nextLong()).write(generator, progress);
                }
            }
            default -> written = new FilesExport(out).write(generator, progress);
        }
        progress.finish(written);
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new GenerateCommand()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }
}
