package io.volumizer.jobs.csv.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.volumizer.jobs.csv.source.CsvRow;

class CsvSourceTest {

    /** Rows of every kind a reader must cut right: a quoted line break, an escaped quote, CRLF, a blank line. */
    private static final String CSV = String.join("\n",
            "id,name,title",
            "1,a,plain",
            "2,b,\"two\nlines\"",
            "3,c,\"a \"\"quote\"\", and a comma\"\r",
            "",
            "4,d,after a blank line",
            "5,e,\"three\nphysical\nlines\"",
            "6,f,last without a line feed");

    @TempDir
    Path folder;

    private CsvInputs inputs() throws IOException {
        Files.writeString(folder.resolve("b.csv"), CSV, StandardCharsets.UTF_8);
        // Excel's byte-order mark, and a quote inside an unquoted field, which opens nothing
        Files.writeString(folder.resolve("a.csv"), "\uFEFFid,name\n7,g\n8,12\" ruler\n", StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("notes.txt"), "not a CSV", StandardCharsets.UTF_8);
        return CsvInputs.of(folder.toString(), null);
    }

    @Test
    void cutsFilesAtRowsEndsAndKnowsEachSplitsFirstLine() throws IOException {
        List<CsvSplit> splits = CsvSplits.cut(inputs(), 10);
        assertThat(splits).extracting(split -> Path.of(split.file()).getFileName().toString())
                .startsWith("a.csv").doesNotContain("notes.txt");
        assertThat(splits).hasSizeGreaterThan(4);
        assertThat(splits).allSatisfy(split -> assertThat(split.header()).startsWith("id,name"));
        // every row, once, on its line, whatever the cuts
        assertThat(readAll(inputs(), splits)).containsExactly(
                "a.csv:2:7,g", "a.csv:3:8,12\" ruler",
                "b.csv:2:1,a,plain", "b.csv:3:2,b,\"two\nlines\"", "b.csv:5:3,c,\"a \"\"quote\"\", and a comma\"",
                "b.csv:7:4,d,after a blank line", "b.csv:8:5,e,\"three\nphysical\nlines\"",
                "b.csv:11:6,f,last without a line feed");
        assertThat(readAll(inputs(), CsvSplits.cut(inputs(), 1 << 20))).hasSize(8);
    }

    @Test
    void aCheckpointResumesMidSplitAtTheNextRow() throws Exception {
        CsvInputs inputs = inputs();
        List<CsvSplit> whole = CsvSplits.cut(inputs, 1 << 20);
        Rows first = new Rows();
        CsvReader reader = new CsvReader(new Context(), inputs);
        reader.addSplits(whole);
        reader.notifyNoMoreSplits();
        for (int i = 0; i < 3; i++) {
            assertThat(reader.pollNext(first)).isEqualTo(InputStatus.MORE_AVAILABLE);
        }
        List<CsvSplit> checkpoint = reader.snapshotState(1);
        reader.pollNext(first); // read after the checkpoint: replayed after the restart
        reader.close();

        Rows restarted = new Rows();
        CsvReader resumed = new CsvReader(new Context(), inputs);
        resumed.addSplits(checkpoint);
        resumed.notifyNoMoreSplits();
        while (resumed.pollNext(restarted) != InputStatus.END_OF_INPUT) {
            // all the rest
        }
        List<String> exactlyOnce = new ArrayList<>(first.rows.subList(0, 3));
        exactlyOnce.addAll(restarted.rows);
        assertThat(exactlyOnce).isEqualTo(readAll(inputs, whole));
    }

    /** Every row of the splits, as file:line:text, read by one reader. */
    private static List<String> readAll(CsvInputs inputs, List<CsvSplit> splits) {
        try {
            Rows rows = new Rows();
            CsvReader reader = new CsvReader(new Context(), inputs);
            reader.addSplits(splits);
            reader.notifyNoMoreSplits();
            while (reader.pollNext(rows) != InputStatus.END_OF_INPUT) {
                // until every split is read
            }
            reader.close();
            return rows.rows;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static final class Rows implements ReaderOutput<CsvRow> {
        final List<String> rows = new ArrayList<>();

        @Override
        public void collect(CsvRow row) {
            rows.add(Path.of(row.file).getFileName() + ":" + row.line + ":" + row.text);
        }

        @Override
        public void collect(CsvRow row, long timestamp) {
            collect(row);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
        }

        @Override
        public void markIdle() {
        }

        @Override
        public void markActive() {
        }

        @Override
        public SourceOutput<CsvRow> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
        }
    }

    private static final class Context implements SourceReaderContext {
        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {
        }

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
        }

        @Override
        public int currentParallelism() {
            return 1;
        }
    }
}
