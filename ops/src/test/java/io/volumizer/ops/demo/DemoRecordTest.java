package io.volumizer.ops.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.generators.GeneratorSettings;

class DemoRecordTest {

    @TempDir
    Path state;

    private final DemoRecord record = new DemoRecord(
            new GeneratorSettings(7, 100, 12, 1.5, YearMonth.of(2024, 6), "demo"), 11_969, "volumizer-demo-import",
            "file:/state/flink/savepoints/savepoint-bbca7e-7886b1f3dcd2", "file:/state/flink/savepoints/savepoint-c44e1a");

    @Test
    void isWrittenAsKeyValueLinesAndReadBack() throws Exception {
        Path file = state.resolve("demo.env");
        record.write(file);

        assertThat(Files.readString(file)).isEqualTo("""
                DEMO_SEED=7
                DEMO_CUSTOMERS=100
                DEMO_STATEMENTS=12
                DEMO_MEAN_ACCOUNTS=1.5
                DEMO_LAST_PERIOD=2024-06
                DEMO_REPOSITORY=demo
                DEMO_DOCUMENTS=11969
                DEMO_IMPORT_GROUP=volumizer-demo-import
                DEMO_IMPORT_SAVEPOINT=file:/state/flink/savepoints/savepoint-bbca7e-7886b1f3dcd2
                DEMO_INDEX_SAVEPOINT=file:/state/flink/savepoints/savepoint-c44e1a
                """);
        assertThat(DemoRecord.read(file)).isEqualTo(record);
    }

    @Test
    void aRecordOfAnEarlierDemoWithoutItsLastPeriodHasTheDefaultOne() throws Exception {
        Path file = state.resolve("demo.env");
        Files.writeString(file, """
                DEMO_SEED=1
                DEMO_CUSTOMERS=100
                DEMO_STATEMENTS=60
                DEMO_MEAN_ACCOUNTS=2.0
                DEMO_REPOSITORY=demo
                DEMO_DOCUMENTS=11969
                DEMO_IMPORT_GROUP=volumizer-demo-import
                DEMO_IMPORT_SAVEPOINT=file:/tmp/fresh/.volumizer/flink/savepoints/savepoint-bbca7e-7886b1f3dcd2
                DEMO_INDEX_SAVEPOINT=file:/tmp/fresh/.volumizer/flink/savepoints/savepoint-c44e1a-5b4dd1d0002e
                """);

        DemoRecord read = DemoRecord.read(file);

        assertThat(read.run()).isEqualTo(new GeneratorSettings(1, 100, 60, 2.0, GeneratorSettings.DEFAULT_LAST_PERIOD, "demo"));
        assertThat(read.importGroup()).isEqualTo("volumizer-demo-import");
    }

    @Test
    void aMissingOrGarbledRecordIsRefusedByName() throws Exception {
        assertThatThrownBy(() -> DemoRecord.read(state.resolve("demo.env"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run bin/volumizer demo first");

        Path file = state.resolve("demo.env");
        Files.writeString(file, "DEMO_SEED=1\nDEMO_CUSTOMERS=100\n");
        assertThatThrownBy(() -> DemoRecord.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DEMO_STATEMENTS is missing").hasMessageContaining(file.toString());

        Files.writeString(file, Files.readString(file).replace("100", "many"));
        assertThatThrownBy(() -> DemoRecord.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a demo record");
    }
}
