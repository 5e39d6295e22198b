package io.volumizer.generators.cli;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.concurrent.Callable;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.internal.Rng;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/volumizer generate}: writes a seeded run to disk as CSV, an Avro data file, or rendition files. */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Generates a bank's content, reproducibly from a seed, into a folder.")
public final class GenerateCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { csv, avro, files }

    @Option(names = "--seed", defaultValue = "1", description = "Seed of all content (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--customers", required = true, description = "Number of customers.")
    long customers;

    @Option(names = "--statements-per-account", defaultValue = "" + GeneratorSettings.DEFAULT_STATEMENTS_PER_ACCOUNT,
            description = "Monthly statements per account (default: ${DEFAULT-VALUE}).")
    int statementsPerAccount;

    @Option(names = "--mean-accounts", defaultValue = "" + GeneratorSettings.DEFAULT_MEAN_ACCOUNTS,
            description = "Mean accounts per customer, 1 to 3 (default: ${DEFAULT-VALUE}).")
    double meanAccounts;

    @Option(names = "--last-period", defaultValue = "2025-12", description = "Month of the last statement (default: ${DEFAULT-VALUE}).")
    YearMonth lastPeriod;

    @Option(names = "--repository", defaultValue = GeneratorSettings.DEFAULT_REPOSITORY,
            description = "Repository name (default: ${DEFAULT-VALUE}).")
    String repository;

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
            settings = new GeneratorSettings(seed, customers, statementsPerAccount, meanAccounts, lastPeriod, repository);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
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
                    Rng rng = Rng.of(seed, 0xa7c0L);
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
