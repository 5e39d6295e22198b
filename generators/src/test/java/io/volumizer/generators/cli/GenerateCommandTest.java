package io.volumizer.generators.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.avro.file.DataFileReader;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;
import picocli.CommandLine;

class GenerateCommandTest {

    @TempDir
    Path folder;

    private int generate(String format, Path out, String seed) {
        return new CommandLine(new GenerateCommand()).execute("--seed", seed, "--customers", "40",
                "--statements-per-account", "6", "--format", format, "--out", out.toString(), "--no-progress");
    }

    @Test
    void twoRunsWithOneSeedWriteIdenticalFilesInEveryFormat() throws Exception {
        for (String format : List.of("csv", "avro")) {
            assertThat(generate(format, folder.resolve(format + "1"), "9")).isZero();
            assertThat(generate(format, folder.resolve(format + "2"), "9")).isZero();
            assertThat(generate(format, folder.resolve(format + "3"), "10")).isZero();
            String file = "documents." + format;
            byte[] first = Files.readAllBytes(folder.resolve(format + "1").resolve(file));
            assertThat(Files.readAllBytes(folder.resolve(format + "2").resolve(file))).isEqualTo(first);
            assertThat(Files.readAllBytes(folder.resolve(format + "3").resolve(file))).isNotEqualTo(first);
        }
    }

    @Test
    void csvAndAvroHoldEveryDocumentOfTheRun() throws Exception {
        generate("csv", folder.resolve("csv"), "9");
        generate("avro", folder.resolve("avro"), "9");
        BankGenerator generator = new BankGenerator(GeneratorSettings.of(9, 40).withStatementsPerAccount(6));
        long expected = 0;
        for (long i = 0; i < generator.indexSpace(); i++) {
            expected += generator.documentAt(i) == null ? 0 : 1;
        }

        List<CSVRecord> rows;
        try (Reader reader = Files.newBufferedReader(folder.resolve("csv/documents.csv"))) {
            rows = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).build().parse(reader).getRecords();
        }
        long avroCount = 0;
        try (var avro = new DataFileReader<>(folder.resolve("avro/documents.avro").toFile(),
                new SpecificDatumReader<>(DocumentEvent.class))) {
            for (DocumentEvent event : avro) {
                assertThat(event).isEqualTo(generator.documentAt(event.getOrigin().getIndex()));
                avroCount++;
            }
        }

        assertThat(rows).hasSize((int) expected);
        assertThat(avroCount).isEqualTo(expected);
        CSVRecord statement = rows.stream().filter(r -> r.get("type").equals("Statement")).findFirst().orElseThrow();
        assertThat(statement.get("properties")).contains("\"closingBalance\":");
        assertThat(statement.get("blobKey")).startsWith("gen/v1/9/6/");
    }

    @Test
    void filesFormatWritesRenditionsIntoTheHierarchy() throws Exception {
        assertThat(generate("files", folder.resolve("files"), "9")).isZero();

        try (var files = Files.walk(folder.resolve("files"))) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            assertThat(all).anyMatch(p -> p.getFileName().toString().equals("id-card.jpg"))
                    .anyMatch(p -> p.getFileName().toString().equals("opening-letter.docx"))
                    .anyMatch(p -> p.getFileName().toString().startsWith("statement-"));
            assertThat(all.get(0).getNameCount() - folder.getNameCount()).isGreaterThanOrEqualTo(5);
        }
    }

    @Test
    void invalidSettingsAreAUsageError() {
        int code = new CommandLine(new GenerateCommand()).execute("--customers", "1", "--mean-accounts", "4",
                "--out", folder.toString());
        assertThat(code).isEqualTo(2);
    }
}
