package io.volumizer.sinks.bulk;

import static io.volumizer.sinks.testing.Events.imported;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.sinks.deadletter.DeadLetters;

/** A bulk sink in a job on Flink's mini cluster: what it passes on, what it dead-letters, in the batches it writes. */
class BulkSinkTest {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(1).build());

    @BeforeEach
    void reset() {
        BulkSinkWriterTest.BATCHES.clear();
    }

    @Test
    void writesInBatchesPassesTheWrittenOnAndDeadLettersTheRefusedWithTheirStage() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        BulkSink<ImportedEvent> sink = new BulkSink<>("import", new BulkSinkWriterTest.RecordingWriter(),
                new BulkFlushOptions(2, Long.MAX_VALUE, Duration.ofMinutes(1)), event -> 100,
                TypeInformation.of(ImportedEvent.class));

        SingleOutputStreamOperator<ImportedEvent> written = sink.writeFrom(
                env.fromData(imported("a"), imported("bad1"), imported("old1"), imported("b"), imported("c")), "Write");
        List<String> passedOn = new ArrayList<>();
        List<DeadLetter> deadLetters = new ArrayList<>();
        try (CloseableIterator<ImportedEvent> out = written.collectAsync();
                CloseableIterator<DeadLetter> letters = written.getSideOutput(DeadLetters.TAG).collectAsync()) {
            env.execute("bulk sink");
            out.forEachRemaining(event -> passedOn.add(event.getDocument().getId()));
            letters.forEachRemaining(deadLetters::add);
        }

        assertThat(BulkSinkWriterTest.BATCHES).as("full batches, then the rest at the end of input")
                .containsExactly(List.of("a", "bad1"), List.of("old1", "b"), List.of("c"));
        assertThat(passedOn).as("the stale one is dropped").containsExactly("a", "b", "c");
        assertThat(deadLetters).singleElement().satisfies(letter -> {
            assertThat(letter.getStage()).isEqualTo("import");
            assertThat(letter.getReasonClass()).isEqualTo(ReasonClass.REFUSED_BY_STORE);
            assertThat(letter.getDocumentId()).isEqualTo("bad1");
            assertThat(letter.getPayload().array()).isEqualTo("bad1".getBytes());
        });
    }
}
