package io.volumizer.jobs.imports;

import static io.volumizer.jobs.testing.Documents.document;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.volumizer.schemas.keys.DocumentKeys;
import io.volumizer.jobs.internal.deadletter.DeadLetters;
import io.volumizer.jobs.testing.Documents;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.ImportedEvent;
import io.volumizer.sinks.mongodb.Ancestry;

class ResolveAncestorsTest {

    /** The repository database as the lookup sees it: a map, filled by the test when a parent "is written". */
    static final Map<String, Ancestry> STORED = new ConcurrentHashMap<>();
    static final AtomicInteger LOOKUPS = new AtomicInteger();

    static final class MapLookup implements ParentLookup {
        @Override
        public void open() {
        }

        @Override
        public Optional<Ancestry> find(String repository, String id) {
            LOOKUPS.incrementAndGet();
            return Optional.ofNullable(STORED.get(id));
        }

        @Override
        public void close() {
        }
    }

    @BeforeEach
    void reset() {
        STORED.clear();
        LOOKUPS.set(0);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, DocumentEvent, ImportedEvent> harness()
            throws Exception {
        var function = new ResolveAncestors(new MapLookup(), Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofMillis(1000),
                Duration.ofHours(1), Documents::avro);
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(function),
                DocumentKeys::parentKey, Types.STRING);
        harness.setProcessingTime(0);
        return harness;
    }

    @Test
    void childrenOfOneParentLookItUpOnceThenHitTheCache() throws Exception {
        STORED.put("account", new Ancestry(List.of("root", "customer", "account"), "/bank/c/a"));
        try (var harness = harness()) {
            harness.open();
            for (int i = 0; i < 30; i++) {
                harness.processElement(document("s" + i, "account", "s" + i + ".pdf"), 0);
            }
            assertThat(LOOKUPS.get()).as("a parent not cached is looked up one retry interval later").isZero();
            harness.setProcessingTime(100);
            for (int i = 30; i < 60; i++) {
                harness.processElement(document("s" + i, "account", "s" + i + ".pdf"), 0);
            }

            List<ImportedEvent> out = harness.extractOutputValues();
            assertThat(out).hasSize(60);
            assertThat(out.get(7).getAncestorIds()).containsExactly("root", "customer", "account");
            assertThat(out.get(7).getPath()).isEqualTo("/bank/c/a/s7.pdf");
            assertThat(LOOKUPS.get()).isEqualTo(1);
        }
    }

    @Test
    void aRootNeedsNoParent() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(document("root", null, "bank"), 0);

            assertThat(harness.extractOutputValues()).singleElement()
                    .satisfies(e -> assertThat(e.getPath()).isEqualTo("/bank"));
        }
    }

    @Test
    void childrenWaitForTheirParentAndAreReleasedWhenItArrives() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(document("s1", "account", "s1.pdf"), 0);
            harness.processElement(document("s2", "account", "s2.pdf"), 0);
            harness.setProcessingTime(100);
            assertThat(harness.extractOutputValues()).isEmpty();
            assertThat(LOOKUPS.get()).as("one lookup for both waiting children").isEqualTo(1);

            STORED.put("account", new Ancestry(List.of("root", "account"), "/bank/a"));
            harness.setProcessingTime(200);

            assertThat(harness.extractOutputValues()).extracting(e -> e.getDocument().getId()).containsExactly("s1", "s2");
            assertThat(harness.numKeyedStateEntries()).as("parked children cleared: only the cached ancestry (ids, path) remains").isEqualTo(2);
        }
    }

    @Test
    void aChildWhoseParentNeverArrivesIsDeadLetteredWithTheReason() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement(document("orphan", "nowhere", "o.pdf"), 0);
            for (long time = 100; time <= 1300; time += 100) {
                harness.setProcessingTime(time);
            }
            assertThat(LOOKUPS.get()).as("looked up at 100, 200, 400, 800 (the 400 ms cap), 1200 ms").isEqualTo(5);

            assertThat(harness.extractOutputValues()).isEmpty();
            assertThat(harness.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(record -> {
                assertThat(record.getValue().getReason()).contains("parent nowhere not found within");
                assertThat(record.getValue().getDocumentId()).isEqualTo("orphan");
                assertThat(record.getValue().getStage()).isEqualTo("import");
            });
        }
    }

    @Test
    void cacheAndParkedChildrenSurviveASnapshot() throws Exception {
        STORED.put("account", new Ancestry(List.of("root", "account"), "/bank/a"));
        OperatorSubtaskState snapshot;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(document("s1", "account", "s1.pdf"), 0);
            harness.processElement(document("x1", "later", "x1.pdf"), 0);
            harness.setProcessingTime(100);
            snapshot = harness.snapshot(1, 0);
        }
        STORED.put("later", new Ancestry(List.of("root", "later"), "/bank/l"));
        try (var restored = harness()) {
            restored.initializeState(snapshot);
            restored.open();
            restored.processElement(document("s2", "account", "s2.pdf"), 0);
            restored.setProcessingTime(200);

            assertThat(restored.extractOutputValues()).extracting(e -> e.getDocument().getId())
                    .containsExactly("s2", "x1");
            assertThat(LOOKUPS.get()).as("s2 hit the restored cache; x1 was looked up once more, on its timer").isEqualTo(3);
        }
    }
}
