package io.volumizer.sinks.deadletter;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.OutputTag;

import io.volumizer.schemas.event.DeadLetter;
import io.volumizer.schemas.event.ReasonClass;
import io.volumizer.options.conventions.MetricNames;
import io.volumizer.sinks.metrics.StageMetrics;

/**
 * A stage's dead letters: builds each record (sent to {@link #TAG} by every operator that can reject something) and
 * counts it by reason class. One {@value MetricNames#DEAD_LETTERED} counter per class, labelled {@value MetricNames#REASON_LABEL} (the class in
 * lower case), all registered at start so that a dashboard sees zeros rather than no series; the classes are the
 * record's own bounded set, so a reason's particulars (ids, offsets) never become labels.
 */
public final class DeadLetters {

    public static final OutputTag<DeadLetter> TAG = new OutputTag<>("dead-letters") { };

    private final String stage;
    private final Map<ReasonClass, Counter> counts = new EnumMap<>(ReasonClass.class);

    /** Registers the counters in the stage's metric group, under an operator's (or function's) {@code operator}. */
    public DeadLetters(MetricGroup operator, String stage) {
        this.stage = stage;
        MetricGroup metrics = StageMetrics.of(operator, stage);
        for (ReasonClass reasonClass : ReasonClass.values()) {
            counts.put(reasonClass, metrics.addGroup(MetricNames.REASON_LABEL, label(reasonClass)).counter(MetricNames.DEAD_LETTERED));
        }
    }

    /**
     * A record that could not be processed, counted, for its origin to complete (a Kafka record adds its payload,
     * topic, partition and offset).
     */
    public DeadLetter.Builder letter(ReasonClass reasonClass, String reason) {
        counts.get(reasonClass).inc();
        return DeadLetter.newBuilder().setStage(stage).setReasonClass(reasonClass).setReason(reason)
                .setTimestamp(Instant.now());
    }

    /** A decoded document that could not be processed: its payload is the document re-encoded. */
    public DeadLetter of(ReasonClass reasonClass, String reason, String documentId, byte[] payload) {
        return letter(reasonClass, reason).setPayload(ByteBuffer.wrap(payload)).setDocumentId(documentId).build();
    }

    /** A row of a file that could not become a document: its payload is the row's text. */
    public DeadLetter ofRow(ReasonClass reasonClass, String reason, String file, long line, byte[] payload) {
        return letter(reasonClass, reason).setPayload(ByteBuffer.wrap(payload)).setFile(file).setLine(line).build();
    }

    /** The label value of a class, as Prometheus queries name it. */
    public static String label(ReasonClass reasonClass) {
        return reasonClass.name().toLowerCase(Locale.ROOT);
    }
}
