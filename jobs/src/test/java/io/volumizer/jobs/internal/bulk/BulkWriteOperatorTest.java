package io.volumizer.jobs.internal.bulk;

import static io.volumizer.jobs.testing.Documents.imported;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.stores.BulkResult;

class BulkWriteOperatorTest {

    /** Batches the writer received; ids starting with "bad" fail, with "old" are stale. */
    static final List<List<String>> BATCHES = new CopyOnWriteArrayList<>();

    static final class RecordingWriter implements BulkWriter<ImportedEvent> {
        @Override
        public void open(RuntimeContext context) {
        }

        @Override
        public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
            List<String> ids = new ArrayList<>();
            BulkResult<ImportedEvent> result = new BulkResult<>();
            for (ImportedEvent event : batch) {
                String id = event.getDocument().getId();
                ids.add(id);
                if (id.startsWith("bad")) {
                    result.failed(event, ReasonClass.REFUSED_BY_STORE, "mapper_parsing_exception on " + id);
                } else if (id.startsWith("old")) {
                    result.stale(event);
                } else {
                    result.written(event);
                }
            }
            BATCHES.add(ids);
            return result;
        }

        @Override
        public byte[] payloadOf(ImportedEvent item) {
            return item.getDocument().getId().getBytes();
        }

        @Override
        public String idOf(ImportedEvent item) {
            return item.getDocument().getId();
        }

        @Override
        public void close() {
        }
    }

    @BeforeEach
    void reset() {
        BATCHES.clear();
    }

    private static OneInputStreamOperatorTestHarness<ImportedEvent, ImportedEvent> harness() throws Exception {
        var operator = new BulkWriteOperator<>("index", new RecordingWriter(), 3, Long.MAX_VALUE,
                Duration.ofMillis(500), e -> 100);
        var harness = new OneInputStreamOperatorTestHarness<>(operator);
        harness.setProcessingTime(0);
        harness.open();
        return harness;
    }

    @Test
    void writesFullBatchesAndPassesWrittenRecordsOn() throws Exception {
        try (var harness = harness()) {
            for (String id : List.of("a", "b", "c", "d")) {
                harness.processElement(new StreamRecord<>(imported(id)));
            }

            assertThat(BATCHES).containsExactly(List.of("a", "b", "c"));
            assertThat(harness.extractOutputValues()).extracting(e -> e.getDocument().getId()).containsExactly("a", "b", "c");
        }
    }

    @Test
    void flushesBeforeTheCheckpointBarrierSoNothingIsInFlightAtACheckpoint() throws Exception {
        try (var harness = harness()) {
            harness.processElement(new StreamRecord<>(imported("a")));
            harness.prepareSnapshotPreBarrier(1);

            assertThat(BATCHES).containsExactly(List.of("a"));
        }
    }

    @Test
    void flushesOnTheIntervalAndAtTheEndOfInput() throws Exception {
        try (var harness = harness()) {
            harness.processElement(new StreamRecord<>(imported("a")));
            harness.setProcessingTime(600);
            harness.processElement(new StreamRecord<>(imported("b")));
            harness.getOneInputOperator().finish();

            assertThat(BATCHES).containsExactly(List.of("a"), List.of("b"));
        }
    }

    @Test
    void failedRecordsBecomeDeadLettersAndStaleOnesAreDropped() throws Exception {
        try (var harness = harness()) {
            for (String id : List.of("good", "bad1", "old1")) {
                harness.processElement(new StreamRecord<>(imported(id)));
            }

            assertThat(harness.extractOutputValues()).extracting(e -> e.getDocument().getId()).containsExactly("good");
            assertThat(harness.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(record -> {
                assertThat(record.getValue().getReason()).isEqualTo("mapper_parsing_exception on bad1");
                assertThat(record.getValue().getDocumentId()).isEqualTo("bad1");
                assertThat(record.getValue().getStage()).isEqualTo("index");
            });
        }
    }
}
