package io.volumizer.sinks.bulk;

import static io.volumizer.sinks.testing.Events.imported;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.sinks.deadletter.DeadLetters;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.stores.BulkResult;
import io.volumizer.stores.StoreUnavailableException;

class BulkSinkWriterTest {

    /**
     * Batches the writer was asked to write, whatever came of it; ids starting with "bad" fail, with "old" are stale, with "poison" cannot be
     * encoded, with "down" find the store unavailable.
     */
    static final List<List<String>> BATCHES = new CopyOnWriteArrayList<>();

    static final class RecordingWriter implements BulkWriter<ImportedEvent> {
        @Override
        public void open(RuntimeContext context) {
        }

        @Override
        public BulkResult<ImportedEvent> write(List<ImportedEvent> batch) {
            List<String> ids = batch.stream().map(event -> event.getDocument().getId()).toList();
            BATCHES.add(ids);
            BulkResult<ImportedEvent> result = new BulkResult<>();
            for (ImportedEvent event : batch) {
                String id = event.getDocument().getId();
                if (id.startsWith("down")) {
                    throw new StoreUnavailableException("MongoDB down", null);
                }
                if (id.startsWith("poison")) {
                    throw new IllegalArgumentException("cannot encode " + id);
                }
                if (id.startsWith("bad")) {
                    result.failed(event, ReasonClass.REFUSED_BY_STORE, "mapper_parsing_exception on " + id);
                } else if (id.startsWith("old")) {
                    result.stale(event);
                } else {
                    result.written(event);
                }
            }
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

    @Test
    void aRecordThatFailsTheSameWayAfterRestartsIsDeadLetteredAndTheRestOfItsBatchWritten() throws Exception {
        List<String> failures = new ArrayList<>();
        JobID job = new JobID();
        for (int attempt = 1; attempt < RecordAttempts.MAX_ATTEMPTS; attempt++) {
            // A restart: the same job and task, the record replayed from the checkpoint before it. A failed task is
            // not finished (that would flush again), so the harness is left as the failure left it.
            var failing = harness(new MockEnvironmentBuilder().setJobID(job).build());
            failing.processElement(new StreamRecord<>(imported("a1")));
            failing.processElement(new StreamRecord<>(imported("poison-" + run)));
            failures.add(catchThrowable(() -> failing.processElement(new StreamRecord<>(imported("a2")))).getMessage());
        }
        try (var harness = harness(new MockEnvironmentBuilder().setJobID(job).build())) {
            harness.processElement(new StreamRecord<>(imported("a1")));
            harness.processElement(new StreamRecord<>(imported("poison-" + run)));
            harness.processElement(new StreamRecord<>(imported("a2")));

            assertThat(harness.extractOutputValues()).extracting(event -> event.getDocument().getId())
                    .containsExactly("a1", "a2");
            assertThat(harness.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(letter -> {
                assertThat(letter.getValue().getReasonClass()).isEqualTo(ReasonClass.FAILED_REPEATEDLY);
                assertThat(letter.getValue().getReason()).contains("failed 3 times the same way", "cannot encode");
                assertThat(letter.getValue().getDocumentId()).isEqualTo("poison-" + run);
            });
        }
        assertThat(failures).as("the task fails, to restart, until the record failed the same way often enough")
                .containsExactly("cannot encode poison-" + run, "cannot encode poison-" + run);
    }

    @Test
    void aServiceFaultFailsTheTaskAtOnceAsOftenAsItLastsAndNeverDeadLettersTheRecord() throws Exception {
        JobID job = new JobID();
        for (int attempt = 1; attempt <= RecordAttempts.MAX_ATTEMPTS + 1; attempt++) {
            // A restart, as in the test above: a failed task is not finished, the harness is left as it failed.
            var restarted = harness(new MockEnvironmentBuilder().setJobID(job).build());
            restarted.processElement(new StreamRecord<>(imported("down-" + run)));
            restarted.processElement(new StreamRecord<>(imported("a1")));

            assertThat(catchThrowable(() -> restarted.processElement(new StreamRecord<>(imported("a2")))))
                    .as("restart " + attempt).isInstanceOf(StoreUnavailableException.class);
            assertThat(restarted.getSideOutput(DeadLetters.TAG)).isNullOrEmpty();
            assertThat(restarted.extractOutputValues()).as("nothing passed on from a batch not written").isEmpty();
        }
        assertThat(BATCHES).as("never halved: a service fault is no record's doing").hasSize(RecordAttempts.MAX_ATTEMPTS + 1)
                .allSatisfy(batch -> assertThat(batch).containsExactly("down-" + run, "a1", "a2"));
    }

    @Test
    void aServiceFaultIsNeverCountedAgainstARecord() {
        assertThat(RecordAttempts.failed("scope", "record", new StoreUnavailableException("MongoDB down", null))).isZero();
        assertThat(RecordAttempts.failed("scope", "record", new IllegalStateException("wrapped",
                new java.net.ConnectException("refused")))).isZero();
        assertThat(RecordAttempts.failed("scope", "record", new IllegalStateException("a bug"))).isEqualTo(1);
        assertThat(RecordAttempts.failed("scope", "record", new IllegalStateException("another bug")))
                .as("another way of failing counts anew").isEqualTo(1);
    }

    private final String run = java.util.UUID.randomUUID().toString();

    private static OneInputStreamOperatorTestHarness<ImportedEvent, ImportedEvent> harness() throws Exception {
        return harness(new MockEnvironmentBuilder().build());
    }

    private static OneInputStreamOperatorTestHarness<ImportedEvent, ImportedEvent> harness(MockEnvironment environment)
            throws Exception {
        var operator = new BulkSinkWriter<>("index", new RecordingWriter(),
                new BulkFlushOptions(3, Long.MAX_VALUE, Duration.ofMillis(500)), e -> 100);
        var harness = new OneInputStreamOperatorTestHarness<>(operator, environment);
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
