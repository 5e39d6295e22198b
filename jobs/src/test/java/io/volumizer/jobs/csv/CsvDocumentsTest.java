package io.volumizer.jobs.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.csv.source.CsvRow;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.cli.CsvExport;
import io.volumizer.schemas.event.DocumentEvent;

class CsvDocumentsTest {

    private static final Instant IMPORT_TIME = Instant.parse("2026-11-24T00:00:00Z");
    private static final String NUXEO_HEADER = "name,type,title,dc:description,file:content";

    private final CsvDocuments rows = new CsvDocuments("copy", IMPORT_TIME);

    private static String csv(Object... values) throws IOException {
        StringWriter text = new StringWriter();
        try (CSVPrinter printer = new CSVPrinter(text, CSVFormat.RFC4180)) {
            printer.printRecord(values);
        }
        return text.toString().stripTrailing();
    }

    @Test
    void aGeneratorExportsRowIsTheDocumentItWasBornAsInTheTargetRepository() throws IOException, InvalidRowException {
        BankGenerator generator = new BankGenerator(new GeneratorSettings(3, 5, 4, 1.5, java.time.YearMonth.of(2025, 12), "bank"));
        StringWriter export = new StringWriter();
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent generated = generator.documentAt(index);
            if (generated == null) {
                continue;
            }
            export.getBuffer().setLength(0);
            CsvExport.row(new CSVPrinter(export, CSVFormat.RFC4180), index, generated);
            DocumentEvent imported = rows.parse(new CsvRow("export.csv", index + 2, String.join(",", CsvExport.HEADER),
                    export.toString().stripTrailing())).document().build();
            assertThat(imported.getRepository()).isEqualTo("copy");
            assertThat(imported).usingRecursiveComparison().ignoringFields("repository", "origin", "eventTime", "acl",
                    "parentVersion").isEqualTo(generated);
            assertThat(imported.getOrigin().getSource()).isEqualTo("csv");
            assertThat(imported.getOrigin().getIndex()).isEqualTo(index + 2);
        }
    }

    @Test
    void nuxeoCsvsNamesBuildTheTreeAndOtherColumnsAreProperties() throws IOException, InvalidRowException {
        CsvDocuments.Parsed folder = rows.parse(new CsvRow("f.csv", 2, NUXEO_HEADER, csv("contracts", "Folder", "Contracts", "", "")));
        CsvDocuments.Parsed file = rows.parse(new CsvRow("f.csv", 3, NUXEO_HEADER,
                csv("contracts/2026/c-1", "File", "", "the first", "scans/c-1.pdf")));
        assertThat(folder.parentPath()).contains("");
        assertThat(folder.document().getId()).isEqualTo(CsvDocuments.pathId("copy", "contracts"));
        assertThat(file.parentPath()).contains("contracts/2026");
        assertThat(file.document().getName()).isEqualTo("c-1");
        assertThat(file.document().getTitle()).isEqualTo("c-1");
        assertThat(file.document().getProperties()).isEqualTo(Map.of("dc:description", "the first"));
        assertThat(file.blobFile()).contains("scans/c-1.pdf");
        assertThat(file.document().getCreated()).isEqualTo(IMPORT_TIME);
        assertThat(file.document().getVersion()).isEqualTo(1);
    }

    @Test
    void saysWhyARowCannotBeADocument() {
        String header = String.join(",", CsvExport.HEADER);
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, NUXEO_HEADER, "a,File,t,d,f,extra")))
                .hasMessage("6 columns where the header has 5: too many columns");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, NUXEO_HEADER, "a,file,t,d,")))
                .hasMessageStartingWith("bad type 'file'");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, NUXEO_HEADER, "a//b,File,t,d,")))
                .hasMessageStartingWith("bad name 'a//b'");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, header,
                "0,CREATE,bank,id,p,File,n,t,yesterday,,1,,,,{}"))).hasMessageStartingWith("unparseable value of 'created'");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, header,
                "0,CREATE,bank,id,p,File,n,t,,,one,,,,{}"))).hasMessageStartingWith("unparseable value of 'version'");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, header,
                "0,CREATE,bank,id,p,File,n,t,,,1,,,,{broken"))).hasMessageStartingWith("unparseable value of 'properties'");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, header,
                "0,MOVE,bank,id,p,File,n,t,,,1,,,,{}"))).hasMessageStartingWith("unparseable value of 'operation'");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, "id,title", "1,t")))
                .hasMessageContaining("no 'name' and 'type' columns");
        assertThatThrownBy(() -> rows.parse(new CsvRow("f.csv", 2, NUXEO_HEADER, "\"a,File,t,d,")))
                .hasMessageStartingWith("unparseable row");
    }
}
